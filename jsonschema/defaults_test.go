package jsonschema_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

const defaultsSchema = `{
	"type": "object",
	"properties": {
		"state": {"type": "string", "default": "open"},
		"limit": {"$ref": "#/$defs/limit"},
		"sort": {
			"type": "object",
			"properties": {"descending": {"type": "boolean", "default": false}, "field": {"type": "string"}}
		},
		"tags": {"type": "array", "default": ["a"]},
		"none": {"type": "string"}
	},
	"allOf": [{"properties": {"page": {"default": 1}}}],
	"$defs": {"limit": {"type": "integer", "default": 30}}
}`

func TestApplyDefaults(t *testing.T) {
	rs := mustCompile(t, defaultsSchema)
	tests := []struct{ in, want string }{
		{`{}`, `{"limit":30,"page":1,"state":"open","tags":["a"]}`},
		{`{"state":"closed","limit":5,"page":2,"tags":[]}`, `{"limit":5,"page":2,"state":"closed","tags":[]}`},
		{`{"sort":{"field":"x"}}`, `{"limit":30,"page":1,"sort":{"descending":false,"field":"x"},"state":"open","tags":["a"]}`},
		{`{"sort":null,"state":null}`, `{"limit":30,"page":1,"sort":null,"state":null,"tags":["a"]}`},
	}
	for _, tc := range tests {
		var m map[string]any
		if err := json.Unmarshal([]byte(tc.in), &m); err != nil {
			t.Fatal(err)
		}
		if err := rs.ApplyDefaults(&m); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(m)
		if string(out) != tc.want {
			t.Errorf("ApplyDefaults(%s) = %s, want %s", tc.in, out, tc.want)
		}
	}
	var nilMap map[string]any
	if err := rs.ApplyDefaults(&nilMap); err != nil || nilMap["state"] != "open" {
		t.Errorf("nil map: %v, %v", nilMap, err)
	}
	// Defaults are fresh copies.
	var a, b map[string]any
	rs.ApplyDefaults(&a)
	rs.ApplyDefaults(&b)
	a["tags"].([]any)[0] = "changed"
	if b["tags"].([]any)[0] != "a" {
		t.Error("defaults share storage")
	}
}

func TestApplyDefaultsJSON(t *testing.T) {
	rs := mustCompile(t, defaultsSchema)
	tests := []struct{ in, want string }{
		{`{}`, `{"state":"open","limit":30,"tags":["a"],"page":1}`},
		{`{"state":"x","limit":1,"tags":[],"page":0}`, `{"state":"x","limit":1,"tags":[],"page":0}`},
		{` { "sort" : { "field" : "x" } } `, ` { "sort" : { "field" : "x" ,"descending":false} ,"state":"open","limit":30,"tags":["a"],"page":1} `},
		{`{"sort":{}}`, `{"sort":{"descending":false},"state":"open","limit":30,"tags":["a"],"page":1}`},
		{`[1]`, `[1]`},
	}
	for _, tc := range tests {
		out, err := rs.ApplyDefaultsJSON([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("ApplyDefaultsJSON(%s) =\n %s\nwant\n %s", tc.in, out, tc.want)
		}
		if !json.Valid(out) {
			t.Errorf("invalid JSON: %s", out)
		}
	}
	full := []byte(`{"state":"x","limit":1,"tags":[],"page":0,"sort":{"descending":true}}`)
	if raceEnabled {
		return
	}
	allocs := testing.AllocsPerRun(100, func() {
		out, err := rs.ApplyDefaultsJSON(full)
		if err != nil || &out[0] != &full[0] {
			t.Fatal("input not returned as is")
		}
	})
	if allocs != 0 {
		t.Errorf("ApplyDefaultsJSON with nothing to add: %v allocations", allocs)
	}
	if _, err := rs.ApplyDefaultsJSON([]byte(`{"a":1,"a":2}`)); err == nil {
		t.Error("duplicate keys accepted")
	}
}

func TestValidateDefaults(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"properties": {"n": {"type": "integer", "default": "x"}}}`), &s); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(nil); err != nil {
		t.Errorf("Resolve without ValidateDefaults: %v", err)
	}
	if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err == nil {
		t.Error("invalid default accepted with ValidateDefaults")
	}
}

func ExampleResolved_ApplyDefaults() {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"units": {"type": "string", "default": "metric"},
			"days": {"type": "integer", "default": 3}
		}
	}`), &s); err != nil {
		panic(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	args := map[string]any{"days": 7}
	if err := rs.ApplyDefaults(&args); err != nil {
		panic(err)
	}
	fmt.Println(args)
	raw, _ := rs.ApplyDefaultsJSON([]byte(`{"days": 7}`))
	fmt.Println(string(raw))
	// Output:
	// map[days:7 units:metric]
	// {"days": 7,"units":"metric"}
}
