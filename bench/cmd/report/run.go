package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// A runner runs the plan pass by pass, one process per target of a group,
// rotating the order of the targets from pass to pass (and from one
// repetition of a repeated group to the next) so that no SDK always runs
// first or last.
type runner struct {
	bins     map[string]*binary // by package directory, as group.dir
	groups   []group
	passes   int
	repeats  int       // runs per pass of the repeated groups
	deadline time.Time // no run starts after it
	log      io.Writer
}

// run fills s and reports whether every planned run happened before the
// deadline.
func (r *runner) run(ctx context.Context, s *store) (complete bool, err error) {
	for pass := range r.passes {
		for gi, g := range r.groups {
			reps := 1
			if repeated[g.name()] {
				reps = max(r.repeats, 1)
			}
			if reason := r.bins[g.dir].pendingReason(g); reason != "" {
				s.addSample(sample{pass: pass}, pendingOutput(g, reason))
				continue
			}
			for rep := range reps {
				for _, t := range rotate(g.targets, pass+gi+rep) {
					if time.Now().After(r.deadline) {
						return false, nil
					}
					if err := ctx.Err(); err != nil {
						return false, err
					}
					out, err := r.runOne(ctx, g, t)
					if err != nil {
						return false, err
					}
					s.addSample(sample{pass, rep}, out)
				}
			}
		}
		fmt.Fprintf(r.log, "pass %d of %d done\n", pass+1, r.passes)
	}
	return true, nil
}

// runOne runs one target of a group and parses what it printed. A run that
// crashed without a result, skip or failure line is recorded as a failure.
func (r *runner) runOne(ctx context.Context, g group, target string) (output, error) {
	args := append([]string{
		"-test.run=^$", "-test.bench=" + g.pattern(target), "-test.benchtime=" + g.benchtime,
		"-test.benchmem", "-test.v", "-test.count=1", "-test.timeout=5m",
	}, binaryArgs(g.dir)...)
	bin := r.bins[g.dir]
	cmd := exec.CommandContext(ctx, bin.path, args...)
	cmd.Dir = bin.dir
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	start := time.Now()
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return output{}, ctx.Err()
	}
	out := parseOutput(buf.Bytes())
	fmt.Fprintf(r.log, "  %-60s %6.1fs\n", g.full(target), time.Since(start).Seconds())
	if len(out.results)+len(out.skips)+len(out.fails) == 0 {
		var exit *exec.ExitError
		if runErr != nil && !errors.As(runErr, &exit) {
			return output{}, runErr
		}
		out.fails = append(out.fails, skip{g.full(target), "no result: " + lastLines(buf.String(), 5)})
	}
	return out, nil
}

// pendingOutput records every target of g as pending, for reason.
func pendingOutput(g group, reason string) output {
	var out output
	for _, t := range g.targets {
		out.skips = append(out.skips, skip{g.full(t), reason})
	}
	return out
}

// rotate returns list rotated left by k.
func rotate(list []string, k int) []string {
	if len(list) == 0 {
		return nil
	}
	k %= len(list)
	return append(append([]string(nil), list[k:]...), list[:k]...)
}

// lastLines returns the last n lines of s, joined with " / ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
