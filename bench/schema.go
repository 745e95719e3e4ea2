package bench

import (
	"bytes"
	"encoding/json"

	ours "github.com/gomcp/sdk/jsonschema"
	google "github.com/google/jsonschema-go/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
)

// ToolSchema is the JSON Schema of a typical tool's arguments: a closed
// object with a required bounded string, an integer range, a string array,
// an enum and a nested closed object.
var ToolSchema = []byte(`{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"properties": {
		"query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "what to search for"},
		"limit": {"type": "integer", "minimum": 1, "maximum": 100},
		"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
		"mode": {"enum": ["fast", "exact"]},
		"options": {
			"type": "object",
			"properties": {"caseSensitive": {"type": "boolean"}, "language": {"type": "string"}},
			"additionalProperties": false
		}
	},
	"required": ["query"],
	"additionalProperties": false
}`)

// ToolArgs is an instance of ToolSchema, the arguments of a typical call.
var ToolArgs = []byte(`{"query":"model context protocol","limit":10,"tags":["go","mcp"],"mode":"fast","options":{"caseSensitive":true,"language":"en"}}`)

// BadToolArgs are arguments ToolSchema rejects: limit is out of range.
var BadToolArgs = []byte(`{"query":"model context protocol","limit":1000}`)

// A SchemaLib is one JSON Schema library, driven the way its documentation
// shows: compile a schema from its JSON text, decode an instance into the
// library's native form, validate it.
type SchemaLib interface {
	// Name is the library's short name in benchmark names.
	Name() string
	// Compile parses and compiles a schema. The error wraps ErrPending if
	// the library cannot do it yet.
	Compile(schema []byte) (Validator, error)
}

// A Validator is a compiled schema.
type Validator interface {
	// Decode decodes an instance into the form Validate expects.
	Decode(instance []byte) (any, error)
	// Validate validates a decoded instance.
	Validate(v any) error
	// ValidateJSON validates an instance given as JSON text, the way the
	// library recommends: directly if it can, else decoding it first.
	ValidateJSON(instance []byte) error
}

// SchemaLibs lists the libraries in the order benchmarks run them.
func SchemaLibs() []SchemaLib { return []SchemaLib{oursSchema{}, googleSchema{}, santhoshSchema{}} }

// oursSchema is github.com/gomcp/sdk/jsonschema. Instances are decoded with
// encoding/json; ValidateJSON validates JSON text without decoding it.
type oursSchema struct{}

func (oursSchema) Name() string { return "ours" }

func (oursSchema) Compile(schema []byte) (Validator, error) {
	var s ours.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return oursValidator{rs}, nil
}

type oursValidator struct{ rs *ours.Resolved }

func (oursValidator) Decode(instance []byte) (any, error) {
	var v any
	err := json.Unmarshal(instance, &v)
	return v, err
}

func (o oursValidator) Validate(v any) error { return o.rs.Validate(v) }

func (o oursValidator) ValidateJSON(instance []byte) error { return o.rs.ValidateJSON(instance) }

// googleSchema is github.com/google/jsonschema-go v0.4.3, the library the
// official Go SDK validates with. Instances are decoded with encoding/json.
type googleSchema struct{}

func (googleSchema) Name() string { return "google" }

func (googleSchema) Compile(schema []byte) (Validator, error) {
	var s google.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return googleValidator{rs}, nil
}

type googleValidator struct{ rs *google.Resolved }

func (googleValidator) Decode(instance []byte) (any, error) {
	var v any
	err := json.Unmarshal(instance, &v)
	return v, err
}

func (g googleValidator) Validate(v any) error { return g.rs.Validate(v) }

func (g googleValidator) ValidateJSON(instance []byte) error {
	v, err := g.Decode(instance)
	if err != nil {
		return err
	}
	return g.Validate(v)
}

// santhoshSchema is github.com/santhosh-tekuri/jsonschema/v6 v6.0.3, the
// library mcp-go validates with. Instances are decoded with its
// UnmarshalJSON, which keeps numbers exact.
type santhoshSchema struct{}

func (santhoshSchema) Name() string { return "santhosh" }

func (santhoshSchema) Compile(schema []byte) (Validator, error) {
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := santhosh.NewCompiler()
	if err := c.AddResource("tool.json", doc); err != nil {
		return nil, err
	}
	s, err := c.Compile("tool.json")
	if err != nil {
		return nil, err
	}
	return santhoshValidator{s}, nil
}

type santhoshValidator struct{ s *santhosh.Schema }

func (santhoshValidator) Decode(instance []byte) (any, error) {
	return santhosh.UnmarshalJSON(bytes.NewReader(instance))
}

func (s santhoshValidator) Validate(v any) error { return s.s.Validate(v) }

func (s santhoshValidator) ValidateJSON(instance []byte) error {
	v, err := s.Decode(instance)
	if err != nil {
		return err
	}
	return s.Validate(v)
}
