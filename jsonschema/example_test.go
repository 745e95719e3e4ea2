package jsonschema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/gomcp/sdk/jsonschema"
)

func Example() {
	// A schema written in Go.
	s := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"name": {Type: "string", MinLength: jsonschema.Ptr(1)},
			"tags": {Type: "array", Items: &jsonschema.Schema{Type: "string"}, UniqueItems: true},
		},
		PropertyOrder:        []string{"name", "tags"},
		Required:             []string{"name"},
		AdditionalProperties: jsonschema.False(),
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rs.ValidateJSON([]byte(`{"name": "gopher", "tags": ["a", "b"]}`)))
	fmt.Println(rs.ValidateJSON([]byte(`{"tags": ["a", "a"], "color": "blue"}`)))
	// Output:
	// <nil>
	// missing required property "name"
	// tags: items must be unique (items 0 and 1 are equal)
	// unexpected property "color"
}

func ExampleSchema_Resolve() {
	var s jsonschema.Schema
	err := json.Unmarshal([]byte(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$defs": {"positive": {"type": "integer", "exclusiveMinimum": 0}},
		"type": "array",
		"items": {"$ref": "#/$defs/positive"}
	}`), &s)
	if err != nil {
		panic(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	var instance any
	json.Unmarshal([]byte(`[3, 0, 1.5]`), &instance)
	fmt.Println(rs.Validate(instance))
	// Output:
	// 1: must be > 0 (got 0)
	// 2: expected integer, got number
}

func ExampleLoader() {
	// Remote references are resolved only by a Loader you provide.
	library := map[string]string{
		"https://example.com/schemas/address.json": `{"type": "object", "required": ["city"]}`,
	}
	loader := func(u *url.URL) (*jsonschema.Schema, error) {
		text, ok := library[u.String()]
		if !ok {
			return nil, fmt.Errorf("unknown schema %s", u)
		}
		s := new(jsonschema.Schema)
		return s, json.Unmarshal([]byte(text), s)
	}
	s := &jsonschema.Schema{
		ID:         "https://example.com/schemas/person.json",
		Properties: map[string]*jsonschema.Schema{"home": {Ref: "address.json"}},
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{Loader: loader})
	if err != nil {
		panic(err)
	}
	fmt.Println(rs.ValidateJSON([]byte(`{"home": {}}`)))

	_, err = s.Resolve(nil)
	fmt.Println(errors.Is(err, jsonschema.ErrNoLoader))
	// Output:
	// home: missing required property "city"
	// true
}

func ExampleSchema_Props() {
	// Walk the properties in order, for example to check that a requested
	// elicitation schema only has primitive properties.
	var s jsonschema.Schema
	json.Unmarshal([]byte(`{"type": "object", "properties": {
		"email": {"type": "string", "format": "email"},
		"age": {"type": "integer"},
		"address": {"type": "object"}
	}}`), &s)
	for name, p := range s.Props() {
		primitive := p.Type == "string" || p.Type == "integer" || p.Type == "number" || p.Type == "boolean"
		fmt.Println(name, primitive)
	}
	// Output:
	// email true
	// age true
	// address false
}

func ExampleResolved_ValidateJSON() {
	s, err := jsonschema.For[SearchIssuesArgs](nil)
	if err != nil {
		panic(err)
	}
	s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
	s.Properties["limit"].Maximum = jsonschema.Ptr(100.0)
	rs, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	err = rs.ValidateJSON([]byte(`{"query": "bug", "repo": "a/b", "limit": 500, "sort": {"field": 1}}`))
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		for _, d := range ve.Details {
			fmt.Printf("%s %s: %s\n", d.InstanceLocation, d.KeywordLocation, d.Message)
		}
	}
	// Output:
	// /limit /properties/limit/maximum: must be <= 100 (got 500)
	// /sort/field /properties/sort/properties/field/type: expected string, got integer
}
