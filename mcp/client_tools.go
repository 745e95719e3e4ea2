package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/jsonschema"
)

// ListTools lists one page of the server's tools.
func (cs *ClientSession) ListTools(ctx context.Context, params *ListToolsParams) (*ListToolsResult, error) {
	if err := requireServer(cs.serverCaps.Tools != nil, "tools"); err != nil {
		return nil, err
	}
	res, err := clientCall[ListToolsParams, ListToolsResult](ctx, cs, MethodListTools, params)
	if err != nil {
		return nil, err
	}
	cs.learnOutputSchemas(res.Tools)
	return res, nil
}

// Tools iterates over all the server's tools, page by page, starting at
// params.Cursor if params is not nil. It stops at the first error.
func (cs *ClientSession) Tools(ctx context.Context, params *ListToolsParams) iter.Seq2[*Tool, error] {
	return paginate(ctx, params, cs.ListTools, func(r *ListToolsResult) ([]*Tool, string) { return r.Tools, r.NextCursor })
}

// CallToolOptions are the optional parts of a tool call.
type CallToolOptions struct {
	// Meta is sent as the request's _meta. A Meta.ProgressToken set here
	// asks for progress notifications under that token; they reach
	// ClientOptions.ProgressNotificationHandler.
	Meta Meta
	// ProgressHandler, if set, receives the progress notifications the
	// server sends for this call; the SDK makes up the progress token,
	// replacing Meta.ProgressToken.
	ProgressHandler func(context.Context, *ProgressNotificationParams)
	// Task asks the server to run the call as a task, with this metadata
	// (2025-11-25). Without it the SDK asks for a task when the client
	// declares the tasks extension and tools/list said the tool supports
	// tasks.
	Task *TaskMetadata
}

// CallTool calls the named tool with args (any value that encodes as a
// JSON object, such as a map or a struct). A tool that fails reports it in
// the result's IsError and content; a protocol failure is an error. Use
// [DecodeStructured] to read a structured result into a Go value, and
// [ClientSession.StartToolCall] to keep a task the server starts instead
// of waiting for its result.
func (cs *ClientSession) CallTool(ctx context.Context, name string, args any, opts *CallToolOptions) (*CallToolResult, error) {
	params, done := cs.callToolParams(name, args, opts)
	defer done()
	return cs.callTool(ctx, params)
}

// callToolParams builds the params of a tools/call from CallTool's
// arguments; done releases the progress token it registered, if any.
func (cs *ClientSession) callToolParams(name string, args any, opts *CallToolOptions) (params *CallToolParams, done func()) {
	params = &CallToolParams{Name: name, Arguments: args}
	done = func() {}
	if opts != nil {
		params.Meta = opts.Meta
		params.Task = opts.Task
		if opts.ProgressHandler != nil {
			token := cs.registerProgress(opts.ProgressHandler)
			done = func() { cs.unregisterProgress(token) }
			params.Meta.ProgressToken = token
		}
	}
	return params, done
}

func (cs *ClientSession) callTool(ctx context.Context, params *CallToolParams) (*CallToolResult, error) {
	if err := requireServer(cs.serverCaps.Tools != nil, "tools"); err != nil {
		return nil, err
	}
	cs.offerTask(params) // task_legacy_client.go
	res, err := clientCallOwned[CallToolParams, CallToolResult](ctx, cs, MethodCallTool, params)
	if err != nil {
		return nil, err
	}
	if err := cs.checkStructuredContent(params.Name, res); err != nil {
		return nil, err
	}
	return res, nil
}

// learnOutputSchemas compiles and remembers the output schemas of listed
// tools, so that results can be checked against them. A schema that does
// not compile is forgotten: the client cannot check it.
func (cs *ClientSession) learnOutputSchemas(tools []*Tool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, t := range tools {
		if t == nil {
			continue
		}
		cs.learnTaskSupportLocked(t) // task_legacy_client.go
		delete(cs.outputSchemas, t.Name)
		if t.OutputSchema == nil {
			continue
		}
		raw, err := strictjson.Marshal(t.OutputSchema)
		if err != nil {
			continue
		}
		var s jsonschema.Schema
		if strictjson.Unmarshal(raw, &s) != nil {
			continue
		}
		resolved, err := s.Resolve(nil)
		if err != nil {
			continue
		}
		if cs.outputSchemas == nil {
			cs.outputSchemas = make(map[string]*jsonschema.Resolved)
		}
		cs.outputSchemas[t.Name] = resolved
	}
}

// checkStructuredContent checks a successful result against the output
// schema the tool declared in tools/list, when the client has seen it.
func (cs *ClientSession) checkStructuredContent(tool string, res *CallToolResult) error {
	cs.mu.Lock()
	schema := cs.outputSchemas[tool]
	cs.mu.Unlock()
	if schema == nil || res.IsError {
		return nil
	}
	if res.StructuredContent == nil {
		return fmt.Errorf("tools/call %q: the tool declares an output schema but returned no structuredContent", tool)
	}
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = strictjson.Marshal(res.StructuredContent); err != nil {
			return err
		}
	}
	if err := schema.ValidateJSON(raw); err != nil {
		return fmt.Errorf("tools/call %q: structuredContent does not match the tool's output schema: %w", tool, err)
	}
	return nil
}
