package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// findTool looks a tool up by name, listing page after page.
func findTool(ctx context.Context, s *session, name string) (*mcp.Tool, error) {
	var found *mcp.Tool
	_, _, err := collect(ctx, 0, func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
		res, err := s.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		for _, t := range res.Tools {
			if t.Name == name {
				found = t
				return nil, "", nil
			}
		}
		return nil, res.NextCursor, nil
	})
	if err != nil {
		return nil, s.fail(err, "listing tools")
	}
	if found == nil {
		return nil, &cliError{exit: exitToolError, code: "tool_not_found", msg: fmt.Sprintf("no tool named %q", name)}
	}
	return found, nil
}

// needsSchema reports whether pairs has a key=value to convert by schema.
func needsSchema(pairs []string) bool {
	for _, p := range pairs {
		if i := strings.IndexByte(p, '='); i > 0 && p[i-1] != ':' {
			return true
		}
	}
	return false
}

func cmdCall(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) == 0 {
		return usageError("call: which tool? gomcp call TARGET TOOL [key=value ...]")
	}
	name, pairs := c.positional[0], c.positional[1:]
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	opts := askOptions(c)
	if c.o.task {
		opts = tasksOptions(c)
	}
	s, err := c.connect(ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	schema := &propSchema{}
	if needsSchema(pairs) {
		tool, err := findTool(ctx, s, name)
		if err != nil {
			return err
		}
		schema = parseSchema(tool.InputSchema)
	}
	args, err := buildArgs(c.env, schema, c.o.args, pairs)
	if err != nil {
		return err
	}
	if c.o.task {
		res, task, err := s.StartToolCall(ctx, name, args, nil)
		if err != nil {
			return callError(s, err, name)
		}
		if task != nil {
			return printTask(c, task)
		}
		return printToolResult(c, res)
	}
	bar := newProgressBar(c)
	res, err := s.CallTool(ctx, name, args, &mcp.CallToolOptions{ProgressHandler: bar.handler()})
	bar.done()
	if err != nil {
		return callError(s, err, name)
	}
	return printToolResult(c, res)
}

// callError classifies the error of a tools/call: an unknown tool exits
// like a tool error.
func callError(s *session, err error, name string) error {
	if isUnknownTool(err) {
		return &cliError{exit: exitToolError, code: "tool_not_found", msg: fmt.Sprintf("no tool named %q", name), cause: err}
	}
	return s.fail(err, "calling "+name)
}

// isUnknownTool recognizes the invalid-params error SDKs answer a call of
// an unknown tool with ("Unknown tool: x", "Tool x not found").
func isUnknownTool(err error) bool {
	var rpc *mcp.JSONRPCError
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeInvalidParams {
		return false
	}
	m := strings.ToLower(rpc.Message)
	return strings.Contains(m, "tool") && (strings.Contains(m, "unknown") || strings.Contains(m, "not found"))
}

// printToolResult prints a tool's result; a result with isError exits 5
// after printing.
func printToolResult(c *cmdCtx, res *mcp.CallToolResult) error {
	if c.o.json {
		if err := printJSON(c.env.stdout, res); err != nil {
			return err
		}
	} else {
		sv := &saver{path: c.o.output, count: binaryCount(res.Content)}
		if err := printContent(c.env.stdout, res.Content, sv); err != nil {
			return err
		}
		if len(res.Content) == 0 && res.StructuredContent != nil {
			fmt.Fprintln(c.env.stdout, rawJSON(res.StructuredContent))
		}
	}
	if res.IsError {
		msg := "the tool reported an error"
		for _, ct := range res.Content {
			if ct.Type == "text" {
				msg += ": " + firstLine(ct.Text, 200)
				break
			}
		}
		return &cliError{exit: exitToolError, code: "tool_is_error", msg: msg}
	}
	return nil
}
