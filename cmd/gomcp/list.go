package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gomcp/sdk/mcp"
)

// collect follows a list's cursors until the end, or until limit items
// (0 means no limit); it returns the cursor of the next page if it
// stopped early.
func collect[T any](ctx context.Context, limit int, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, string, error) {
	var all []T
	cursor := ""
	for {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		all = append(all, items...)
		if limit > 0 && len(all) >= limit {
			if len(all) > limit {
				all = all[:limit]
			}
			return all, next, nil
		}
		if next == "" || next == cursor {
			return all, "", nil
		}
		cursor = next
	}
}

// listTools lists the session's tools, all of them unless limit.
func listTools(ctx context.Context, s *session, limit int) ([]*mcp.Tool, string, error) {
	tools, next, err := collect(ctx, limit, func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
		res, err := s.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
	if err != nil {
		return nil, "", s.fail(err, "listing tools")
	}
	return tools, next, nil
}

func cmdTools(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	tools, next, err := listTools(ctx, s, c.o.limit)
	if err != nil {
		return err
	}
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			Tools      []*mcp.Tool `json:"tools"`
			NextCursor string      `json:"nextCursor,omitempty"`
		}{orEmpty(tools), next})
	}
	tw := tabwriter.NewWriter(c.env.stdout, 0, 4, 2, ' ', 0)
	for _, t := range tools {
		fmt.Fprintf(tw, "%s\t%s\n", signature(t.Name, parseSchema(t.InputSchema)), firstLine(t.Description, 80))
	}
	return tw.Flush()
}

// signature shows a tool's arguments: name(a:int, b:string, [opt:bool]).
func signature(name string, s *propSchema) string {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if required[keys[i]] != required[keys[j]] {
			return required[keys[i]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		arg := k
		if t := s.Properties[k].types(); len(t) > 0 {
			arg += ":" + strings.Join(t, "|")
		}
		if !required[k] {
			arg = "[" + arg + "]"
		}
		parts = append(parts, arg)
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// orEmpty makes a nil list encode as [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func cmdPrompts(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	prompts, next, err := collect(ctx, c.o.limit, func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
		res, err := s.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	})
	if err != nil {
		return s.fail(err, "listing prompts")
	}
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			Prompts    []*mcp.Prompt `json:"prompts"`
			NextCursor string        `json:"nextCursor,omitempty"`
		}{orEmpty(prompts), next})
	}
	tw := tabwriter.NewWriter(c.env.stdout, 0, 4, 2, ' ', 0)
	for _, p := range prompts {
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name)
			} else {
				args = append(args, "["+a.Name+"]")
			}
		}
		fmt.Fprintf(tw, "%s(%s)\t%s\n", p.Name, strings.Join(args, ", "), firstLine(p.Description, 80))
	}
	return tw.Flush()
}

func cmdResources(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	resources, next, err := collect(ctx, c.o.limit, func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
		res, err := s.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
	if err != nil {
		return s.fail(err, "listing resources")
	}
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			Resources  []*mcp.Resource `json:"resources"`
			NextCursor string          `json:"nextCursor,omitempty"`
		}{orEmpty(resources), next})
	}
	tw := tabwriter.NewWriter(c.env.stdout, 0, 4, 2, ' ', 0)
	for _, r := range resources {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.URI, r.Name, r.MIMEType, firstLine(r.Description, 60))
	}
	return tw.Flush()
}

func cmdTemplates(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	templates, next, err := collect(ctx, c.o.limit, func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
		res, err := s.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.ResourceTemplates, res.NextCursor, nil
	})
	if err != nil {
		return s.fail(err, "listing resource templates")
	}
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			ResourceTemplates []*mcp.ResourceTemplate `json:"resourceTemplates"`
			NextCursor        string                  `json:"nextCursor,omitempty"`
		}{orEmpty(templates), next})
	}
	tw := tabwriter.NewWriter(c.env.stdout, 0, 4, 2, ' ', 0)
	for _, t := range templates {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.URITemplate, t.Name, t.MIMEType, firstLine(t.Description, 60))
	}
	return tw.Flush()
}
