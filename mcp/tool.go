package mcp

import (
	"context"
	"errors"
	"fmt"
)

// A ToolHandler runs a tool call. An error it returns is reported to the
// client as a tool result with isError set and the error's text, not as a
// protocol error, so the model can see what went wrong and try again.
type ToolHandler func(ctx context.Context, ss *ServerSession, params *CallToolParams) (*CallToolResult, error)

// A ServerTool is a tool bound to the handler that runs it.
type ServerTool struct {
	Tool    *Tool
	Handler ToolHandler
	// HandlerStartsTask, for a tool whose Tool.Execution allows tasks
	// (tasks extension, see [TaskOptions]), lets the handler choose when a call
	// becomes a task: the call runs synchronously, and may gather input
	// through input-required results, until the handler calls
	// ServerSession.StartTask. By default the task starts before the
	// handler runs.
	HandlerStartsTask bool
}

// AddTools adds tools to the server, replacing any with the same names, and
// tells connected clients the list changed. It panics if a tool is nil, has
// no handler, or has a name the protocol does not allow: these are
// programming errors.
func (s *Server) AddTools(tools ...*ServerTool) {
	for _, t := range tools {
		if t == nil || t.Tool == nil || t.Handler == nil {
			panic("mcp: AddTools: tool and handler must not be nil")
		}
		if err := checkToolName(t.Tool.Name); err != nil {
			panic("mcp: AddTools: " + err.Error())
		}
	}
	s.tools.add(func(t *ServerTool) string { return t.Tool.Name }, tools...)
	s.toolsAdded(tools) // task_server.go
	s.listChanged(NotificationToolListChanged)
}

// RemoveTools removes the named tools and tells connected clients if the
// list changed. Names not present are ignored.
func (s *Server) RemoveTools(names ...string) {
	if s.tools.remove(names...) {
		s.listChanged(NotificationToolListChanged)
	}
}

func (ss *ServerSession) listTools(ctx context.Context, p *ListToolsParams) (*ListToolsResult, error) {
	tools, next, err := ss.server.tools.page(p.Cursor, ss.server.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &ListToolsResult{Tools: make([]*Tool, len(tools)), NextCursor: next}
	for i, t := range tools {
		res.Tools[i] = t.Tool
	}
	if ss.request != nil {
		ss.server.setCacheHints(MethodListTools, &res.TTLMs, &res.CacheScope)
	}
	return res, nil
}

func (ss *ServerSession) callTool(ctx context.Context, p *CallToolParams) (*CallToolResult, error) {
	s := ss.server
	tool, ok := s.tools.get(p.Name)
	if !ok {
		return nil, newErrorWithData(CodeInvalidParams, "Unknown tool: "+p.Name, map[string]string{"name": p.Name})
	}
	res, err := ss.runToolHandler(ctx, tool, p)
	if err != nil {
		var werr *JSONRPCError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, errInputRequired), errors.As(err, &werr):
			return nil, err // the SDK's or a deliberate protocol error
		}
		return &CallToolResult{Content: []*Content{NewTextContent(err.Error())}, IsError: true}, nil
	}
	if res == nil {
		res = &CallToolResult{}
	}
	if res.Content == nil {
		res.Content = []*Content{}
	}
	return res, nil
}

// runToolHandler runs a tool's handler. Unless recovery is off, a panic
// becomes an error (and so a result with IsError), its stack logged.
func (ss *ServerSession) runToolHandler(ctx context.Context, tool *ServerTool, p *CallToolParams) (res *CallToolResult, err error) {
	s := ss.server
	if !s.opts.DisablePanicRecovery {
		defer func() {
			if v := recover(); v != nil {
				_ = panicError(s.logger(), MethodCallTool+" "+p.Name, v) // logged; the tool result reports it
				res, err = nil, fmt.Errorf("tool %q failed: internal error", p.Name)
			}
		}()
	}
	return tool.Handler(withToolRequest(ctx, ss, p), ss, p)
}

// checkToolName enforces the tool naming rules of 2025-11-25: 1 to 128
// characters, each an ASCII letter, digit, '_', '-' or '.'.
func checkToolName(name string) error {
	if len(name) == 0 || len(name) > 128 {
		return errorf("tool name %q must be 1 to 128 characters", name)
	}
	for _, c := range []byte(name) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return errorf("tool name %q has character %q; allowed are ASCII letters, digits, '_', '-' and '.'", name, c)
		}
	}
	return nil
}
