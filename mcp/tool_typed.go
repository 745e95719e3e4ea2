package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/jsonschema"
)

// A ToolOption configures a tool made by NewTool or NewStructuredTool.
type ToolOption interface {
	applyTool(*toolConfig)
}

// A SchemaOption changes a JSON Schema: a tool's input schema, or one of
// its properties.
type SchemaOption interface {
	applySchema(*jsonschema.Schema)
}

type toolConfig struct {
	tool       *Tool
	input      []SchemaOption
	output     []SchemaOption
	noValidate bool
}

type toolOptionFunc func(*toolConfig)

func (f toolOptionFunc) applyTool(c *toolConfig) { f(c) }

type schemaOptionFunc func(*jsonschema.Schema)

func (f schemaOptionFunc) applySchema(s *jsonschema.Schema) { f(s) }

// Input changes the tool's input schema, inferred from its input type.
func Input(opts ...SchemaOption) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.input = append(c.input, opts...) })
}

// Output changes the tool's output schema, inferred from its output type.
func Output(opts ...SchemaOption) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.output = append(c.output, opts...) })
}

// Property applies opts to the named property of an object schema. It
// panics at registration if the schema has no such property.
func Property(name string, opts ...SchemaOption) SchemaOption {
	return schemaOptionFunc(func(s *jsonschema.Schema) {
		prop := s.Properties[name]
		if prop == nil {
			panic(fmt.Sprintf("mcp: Property(%q): the schema has no such property", name))
		}
		for _, o := range opts {
			o.applySchema(prop)
		}
	})
}

// Description sets a schema's description: a tool's input property, or a
// prompt argument (Argument("code", Description("the code to review"))).
func Description(desc string) SchemaOption {
	return schemaOptionFunc(func(s *jsonschema.Schema) { s.Description = desc })
}

// Options of tools and prompts are named after the field they set
// (ReadOnlyHint sets ToolAnnotations.ReadOnlyHint), prefixed with what
// they configure (Tool, Prompt, Argument) when the field exists on more
// than one of them; an option for a boolean field takes the value. Schema
// options (Input, Output, Property, Description, Enum) configure the
// schema they are given to.

// ToolTitle sets the tool's human-readable title.
func ToolTitle(title string) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.tool.Title = title })
}

// WithAnnotations sets all of the tool's behaviour hints at once. (It
// keeps its With: Annotations and ToolAnnotations name types.)
func WithAnnotations(a *ToolAnnotations) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.tool.Annotations = a })
}

// ReadOnlyHint sets whether the tool leaves its environment unchanged.
func ReadOnlyHint(readOnly bool) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.annotations().ReadOnlyHint = readOnly })
}

// IdempotentHint sets whether calling the tool again with the same
// arguments has no additional effect.
func IdempotentHint(idempotent bool) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.annotations().IdempotentHint = idempotent })
}

// OpenWorldHint sets whether the tool interacts with an open world of
// external entities (the web, for example) or a closed one.
func OpenWorldHint(open bool) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.annotations().OpenWorldHint = &open })
}

// DestructiveHint sets whether the tool may perform destructive updates.
func DestructiveHint(destructive bool) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.annotations().DestructiveHint = &destructive })
}

// ToolIcons sets the tool's icons.
func ToolIcons(icons ...Icon) ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.tool.Icons = icons })
}

// SkipValidation turns off the validation of arguments against the input
// schema, for handlers that validate themselves.
func SkipValidation() ToolOption {
	return toolOptionFunc(func(c *toolConfig) { c.noValidate = true })
}

func (c *toolConfig) annotations() *ToolAnnotations {
	if c.tool.Annotations == nil {
		c.tool.Annotations = &ToolAnnotations{}
	}
	return c.tool.Annotations
}

// NewTool makes a tool whose input schema is inferred from In (each field
// that encoding/json would marshal is a property, required unless its json
// tag says omitempty or omitzero) and adjusted by Input options. Arguments
// are validated against the schema before the handler runs; a violation,
// like a handler error, is reported as a tool result with isError, naming
// the argument at fault. The handler finds the rest of its request (its
// _meta, its progress token, a way to report progress) with
// [ToolRequestFromContext].
//
// NewTool panics if the schema cannot be inferred or compiled: that is a
// programming error.
func NewTool[In any](name, description string, handler func(context.Context, *ServerSession, In) ([]*Content, error), opts ...ToolOption) *ServerTool {
	return newTypedTool[In, struct{}](name, description, false, func(ctx context.Context, ss *ServerSession, in In) (*CallToolResult, struct{}, error) {
		content, err := handler(ctx, ss, in)
		if err != nil {
			return nil, struct{}{}, err
		}
		return &CallToolResult{Content: content}, struct{}{}, nil
	}, opts)
}

// A ToolContenter is an output value that says how it reads as unstructured
// content. NewStructuredTool uses it instead of the JSON text fallback, for
// example to give a model markdown while programs read the structure.
type ToolContenter interface {
	ToolContent() []*Content
}

// NewStructuredTool makes a tool with structured output (2025-06-18 and
// later): like NewTool, plus an output schema inferred from Out. The
// handler's Out value is sent as structuredContent, with its JSON as a text
// content block for clients that read only text, or the content its
// ToolContent method returns if Out is a ToolContenter. Clients read it
// with [DecodeStructured].
//
// The protocol requires structuredContent to be a JSON object and the
// output schema to describe one, so Out must be a struct, a pointer to a
// struct, or a map with string keys. NewStructuredTool panics for any
// other Out (an int, a slice, any), as it does when a schema cannot be
// inferred: wrap such a value in a struct, such as
// struct{ Count int `json:"count"` }.
func NewStructuredTool[In, Out any](name, description string, handler func(context.Context, *ServerSession, In) (Out, error), opts ...ToolOption) *ServerTool {
	return newTypedTool[In, Out](name, description, true, func(ctx context.Context, ss *ServerSession, in In) (*CallToolResult, Out, error) {
		out, err := handler(ctx, ss, in)
		return nil, out, err
	}, opts)
}

func newTypedTool[In, Out any](name, description string, structured bool, run func(context.Context, *ServerSession, In) (*CallToolResult, Out, error), opts []ToolOption) *ServerTool {
	cfg := &toolConfig{tool: &Tool{Name: name, Description: description}}
	for _, o := range opts {
		o.applyTool(cfg)
	}
	inSchema := inferSchema[In]("input", cfg.input)
	if inSchema.Type != "object" {
		panic(fmt.Sprintf("mcp: tool %q: input type %T must be a struct or map (its schema must be an object)", name, *new(In)))
	}
	cfg.tool.InputSchema = inSchema
	inResolved := mustResolve(name, "input", inSchema)
	var outResolved *jsonschema.Resolved
	if structured {
		outSchema := inferSchema[Out]("output", cfg.output)
		if outSchema.Type != "object" {
			panic(fmt.Sprintf("mcp: tool %q: output type %v must be a struct, a pointer to one, or a map (structuredContent is a JSON object); wrap the value in a struct", name, reflect.TypeFor[Out]()))
		}
		cfg.tool.OutputSchema = outSchema
		outResolved = mustResolve(name, "output", outSchema)
	}
	validate := !cfg.noValidate
	handler := func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
		raw := argumentBytes(p.Arguments)
		if validate {
			if err := inResolved.ValidateJSON(raw); err != nil {
				return nil, fmt.Errorf("invalid arguments for tool %q: %w", name, err)
			}
		}
		var in In
		if err := strictjson.Unmarshal(raw, &in); err != nil {
			return nil, fmt.Errorf("invalid arguments for tool %q: %w", name, err)
		}
		res, out, err := run(ctx, ss, in)
		if err != nil {
			return nil, err
		}
		if !structured {
			return res, nil
		}
		return structuredResult(name, out, outResolved)
	}
	return &ServerTool{Tool: cfg.tool, Handler: handler}
}

// argumentBytes returns the raw JSON of a tool call's arguments, "{}" when
// absent.
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

func structuredResult(name string, out any, resolved *jsonschema.Resolved) (*CallToolResult, error) {
	raw, err := strictjson.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("tool %q: encoding output: %w", name, err)
	}
	if err := resolved.ValidateJSON(raw); err != nil {
		return nil, fmt.Errorf("tool %q produced output that does not match its output schema: %w", name, err)
	}
	content := []*Content{NewTextContent(string(raw))}
	if tc, ok := out.(ToolContenter); ok {
		content = tc.ToolContent()
	}
	return &CallToolResult{Content: content, StructuredContent: json.RawMessage(raw)}, nil
}

// inferSchema infers the schema of T and applies opts.
func inferSchema[T any](which string, opts []SchemaOption) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: inferring the %s schema of %v: %v", which, reflect.TypeFor[T](), err))
	}
	for _, o := range opts {
		o.applySchema(s)
	}
	return s
}

func mustResolve(tool, which string, s *jsonschema.Schema) *jsonschema.Resolved {
	r, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %q: %s schema: %v", tool, which, err))
	}
	return r
}

// Enum restricts a schema to the given values.
func Enum(values ...any) SchemaOption {
	return schemaOptionFunc(func(s *jsonschema.Schema) { s.Enum = values })
}
