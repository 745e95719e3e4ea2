package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomcp/sdk/jsonschema"
	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// answerResult is an answer as a tool returns it: the answer of the
// service (a pointer, the key of its encoded result) and its output
// value, whose JSON is the structured content and whose ToolContent is
// the text.
type answerResult interface {
	comparable
	mcp.ToolContenter
}

// cachedTool makes a tool as mcp.NewStructuredTool makes it from answer
// (the same name, schemas and annotations, the same argument checks and
// errors, the same result), except that the result of an answer is
// encoded, and checked against the output schema, once: a warm answer,
// which the service returns as the same value again, is its kept result.
func cachedTool[In any, Out answerResult](cache *encodedResults, name, description string, answer func(context.Context, In) (Out, error), opts ...mcp.ToolOption) *mcp.ServerTool {
	t := mcp.NewStructuredTool(name, description, func(ctx context.Context, _ *mcp.ServerSession, in In) (Out, error) {
		return answer(ctx, in)
	}, opts...)
	if cache == nil {
		return t
	}
	inSchema, outSchema := resolve(name, t.Tool.InputSchema), resolve(name, t.Tool.OutputSchema)
	t.Handler = func(ctx context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
		raw := argumentBytes(p.Arguments)
		if err := inSchema.ValidateJSON(raw); err != nil {
			return nil, fmt.Errorf("invalid arguments for tool %q: %w", name, err)
		}
		var in In
		if err := strictjson.Unmarshal(raw, &in); err != nil {
			return nil, fmt.Errorf("invalid arguments for tool %q: %w", name, err)
		}
		out, err := answer(ctx, in)
		if err != nil {
			return nil, err
		}
		if res, ok := cache.get(out); ok {
			return res, nil
		}
		structured, err := strictjson.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("tool %q: encoding output: %w", name, err)
		}
		if err := outSchema.ValidateJSON(structured); err != nil {
			return nil, fmt.Errorf("tool %q produced output that does not match its output schema: %w", name, err)
		}
		res := &mcp.CallToolResult{Content: out.ToolContent(), StructuredContent: json.RawMessage(structured)}
		cache.put(out, res)
		return res, nil // the kept result is a copy
	}
	return t
}

// resolve resolves a schema mcp.NewStructuredTool inferred, and so
// resolved already.
func resolve(tool string, schema any) *jsonschema.Resolved {
	s, ok := schema.(*jsonschema.Schema)
	if !ok {
		panic(fmt.Sprintf("mcpserver: tool %q: a schema of type %T", tool, schema))
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: tool %q: %v", tool, err))
	}
	return r
}

// argumentBytes returns the JSON of a call's arguments, "{}" when there
// are none, as mcp.NewStructuredTool reads them.
func argumentBytes(args any) []byte {
	switch a := args.(type) {
	case nil:
		return []byte("{}")
	case json.RawMessage:
		if len(a) == 0 || string(a) == "null" {
			return []byte("{}")
		}
		return a
	}
	b, err := strictjson.Marshal(args)
	if err != nil {
		return []byte("{}")
	}
	return b
}
