package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// stringPairs parses key=value pairs as strings (prompt arguments and
// completion context are strings).
func stringPairs(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, usageError("argument %q: want key=value", p)
		}
		out[k] = v
	}
	return out, nil
}

func cmdPrompt(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) == 0 {
		return usageError("prompt: which prompt? gomcp prompt TARGET NAME [key=value ...]")
	}
	args, err := stringPairs(c.positional[1:])
	if err != nil {
		return err
	}
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, askOptions(c))
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: c.positional[0], Arguments: args})
	if err != nil {
		return s.fail(err, "getting prompt "+c.positional[0])
	}
	if c.o.json {
		return printJSON(c.env.stdout, res)
	}
	if res.Description != "" {
		fmt.Fprintf(c.env.stdout, "# %s\n", res.Description)
	}
	var content []*mcp.Content
	for _, m := range res.Messages {
		content = append(content, m.Content)
	}
	sv := &saver{path: c.o.output, count: binaryCount(content)}
	for _, m := range res.Messages {
		fmt.Fprintf(c.env.stdout, "%s: ", m.Role)
		if err := printContent(c.env.stdout, []*mcp.Content{m.Content}, sv); err != nil {
			return err
		}
	}
	return nil
}

func cmdRead(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) != 1 {
		return usageError("read: want one URI: gomcp read TARGET URI")
	}
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, askOptions(c))
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.positional[0]})
	if err != nil {
		return s.fail(err, "reading "+c.positional[0])
	}
	if c.o.json {
		return printJSON(c.env.stdout, res)
	}
	n := 0
	for _, rc := range res.Contents {
		if rc.Blob != nil {
			n++
		}
	}
	sv := &saver{path: c.o.output, count: n}
	for _, rc := range res.Contents {
		if err := printResourceContents(c.env.stdout, rc, sv); err != nil {
			return err
		}
	}
	return nil
}

func cmdComplete(ctx context.Context, c *cmdCtx) error {
	p := c.positional
	if len(p) < 3 || (p[0] != "prompt" && p[0] != "template") {
		return usageError("complete: gomcp complete TARGET prompt NAME ARG=PARTIAL [key=value ...] (or template URI ...)")
	}
	argName, partial, ok := strings.Cut(p[2], "=")
	if !ok {
		return usageError("complete: %q: want ARG=PARTIAL", p[2])
	}
	ref := &mcp.CompleteReference{Type: "ref/prompt", Name: p[1]}
	if p[0] == "template" {
		ref = &mcp.CompleteReference{Type: "ref/resource", URI: p[1]}
	}
	params := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteArgument{Name: argName, Value: partial}}
	if len(p) > 3 {
		known, err := stringPairs(p[3:])
		if err != nil {
			return err
		}
		params.Context = &mcp.CompleteContext{Arguments: known}
	}
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.Complete(ctx, params)
	if err != nil {
		return s.fail(err, "completing "+argName)
	}
	if c.o.json {
		return printJSON(c.env.stdout, res)
	}
	for _, v := range res.Completion.Values {
		fmt.Fprintln(c.env.stdout, v)
	}
	if res.Completion.HasMore {
		fmt.Fprintf(c.env.stderr, "(more: %d in all)\n", res.Completion.Total)
	}
	return nil
}

// discovery is the output of discover.
type discovery struct {
	ServerInfo        *mcp.Implementation     `json:"serverInfo"`
	ProtocolVersion   string                  `json:"protocolVersion"`
	Era               string                  `json:"era"`
	SupportedVersions []string                `json:"supportedVersions,omitempty"`
	Capabilities      *mcp.ServerCapabilities `json:"capabilities"`
	Instructions      string                  `json:"instructions,omitempty"`
}

func cmdDiscover(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	d := discovery{
		ServerInfo:      s.ServerInfo(),
		ProtocolVersion: s.ProtocolVersion(),
		Era:             "legacy",
		Capabilities:    s.ServerCapabilities(),
		Instructions:    s.Instructions(),
	}
	if isModern(s.ClientSession) {
		d.Era = "modern"
		res, err := s.Discover(ctx, nil)
		if err != nil {
			return s.fail(err, "server/discover")
		}
		d.SupportedVersions = res.SupportedVersions
	}
	if c.o.json {
		return printJSON(c.env.stdout, d)
	}
	w := c.env.stdout
	if d.ServerInfo != nil {
		fmt.Fprintf(w, "server:       %s %s\n", d.ServerInfo.Name, d.ServerInfo.Version)
		if d.ServerInfo.Title != "" {
			fmt.Fprintf(w, "title:        %s\n", d.ServerInfo.Title)
		}
	}
	fmt.Fprintf(w, "protocol:     %s\n", describe(s.ClientSession))
	if len(d.SupportedVersions) > 0 {
		fmt.Fprintf(w, "versions:     %s\n", strings.Join(d.SupportedVersions, ", "))
	}
	fmt.Fprintf(w, "capabilities: %s\n", strings.Join(capabilityNames(d.Capabilities), ", "))
	if d.Instructions != "" {
		fmt.Fprintf(w, "instructions: %s\n", d.Instructions)
	}
	return nil
}

// capabilityNames lists the server's capabilities for humans.
func capabilityNames(caps *mcp.ServerCapabilities) []string {
	if caps == nil {
		return nil
	}
	var names []string
	add := func(ok bool, name string) {
		if ok {
			names = append(names, name)
		}
	}
	add(caps.Tools != nil, "tools")
	add(caps.Tools != nil && caps.Tools.ListChanged, "tools.listChanged")
	add(caps.Prompts != nil, "prompts")
	add(caps.Prompts != nil && caps.Prompts.ListChanged, "prompts.listChanged")
	add(caps.Resources != nil, "resources")
	add(caps.Resources != nil && caps.Resources.Subscribe, "resources.subscribe")
	add(caps.Resources != nil && caps.Resources.ListChanged, "resources.listChanged")
	add(caps.Logging != nil, "logging")
	add(caps.Completions != nil, "completions")
	var ext []string
	for k := range caps.Extensions {
		ext = append(ext, "extension "+k)
	}
	sort.Strings(ext)
	return append(names, ext...)
}

func cmdPing(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) > 0 {
		return usageError("ping takes no arguments")
	}
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	if err := s.Ping(ctx, nil); err != nil {
		return s.fail(err, "ping")
	}
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			OK bool `json:"ok"`
		}{true})
	}
	fmt.Fprintf(c.env.stdout, "pong from %s in %v\n", c.target, time.Since(start).Round(time.Microsecond))
	return nil
}
