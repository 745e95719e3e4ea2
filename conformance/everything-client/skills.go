package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/gomcp/sdk/ext/skills"
)

// The client scenarios of the Skills extension (sep-2640-client-*). A host
// lists skills without reading any of their files; it reads a skill's
// files only once it loads the skill, and uses none that fails
// verification.

// skillsNoPrefetch lists the server's skills and reads nothing else
// (sep-2640-client-no-prefetch).
func skillsNoPrefetch(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, nil, skills.EnableClient)
	if err != nil {
		return err
	}
	defer cs.Close()
	n := 0
	for e, err := range skills.All(ctx, cs) {
		if err != nil {
			return err
		}
		log.Printf("skill %s (%v): not loaded", e.URI, e.Frontmatter["name"])
		n++
	}
	log.Printf("%d skills listed, no file read", n)
	return nil
}

// skillsLoad lists the server's skills, loads the first (reading and
// verifying its SKILL.md), then reads and verifies the skill's other
// files (sep-2640-client-verify-digest, -verify-size and
// -verify-frontmatter). A skill that fails verification is not loaded and
// none of its other files is read: the scenario then ends with the error.
func skillsLoad(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, nil, skills.EnableClient)
	if err != nil {
		return err
	}
	defer cs.Close()
	page, err := skills.List(ctx, cs, "")
	if err != nil {
		return err
	}
	if len(page.Skills) == 0 {
		return errors.New("the server lists no skill")
	}
	e := page.Skills[0]
	if _, err := skills.Load(ctx, cs, e); err != nil {
		return fmt.Errorf("skill %s refused: %w", e.URI, err)
	}
	for _, f := range e.Resources {
		if f.URI == e.URI {
			continue
		}
		if _, err := skills.ReadFile(ctx, cs, e, f.URI); err != nil {
			return fmt.Errorf("skill %s: file refused: %w", e.URI, err)
		}
	}
	log.Printf("skill %s loaded with %d files", e.URI, len(e.Resources))
	return nil
}

// withSkills adds the Skills scenarios to m.
func withSkills(m map[string]scenario) map[string]scenario {
	m["sep-2640-client-no-prefetch"] = skillsNoPrefetch
	for _, name := range []string{"sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"} {
		m[name] = skillsLoad
	}
	return m
}
