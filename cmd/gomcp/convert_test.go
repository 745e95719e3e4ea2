package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// conversionSchema has a property of every type the conversion knows.
const conversionSchema = `{"type":"object","properties":{
	"s":{"type":"string"},
	"i":{"type":"integer"},
	"n":{"type":"number"},
	"b":{"type":"boolean"},
	"a":{"type":"array","items":{"type":"integer"}},
	"as":{"type":"array","items":{"type":"string"}},
	"o":{"type":"object"},
	"maybe":{"type":["integer","null"]},
	"either":{"anyOf":[{"type":"boolean"},{"type":"string"}]},
	"e":{"type":"string","enum":["x","y"]}
}}`

// TestConvertPair is the conversion table: key=value by the input schema,
// key:=JSON as is, unknown keys by their JSON look.
func TestConvertPair(t *testing.T) {
	schema := parseSchema(json.RawMessage(conversionSchema))
	tests := []struct {
		pair    string
		key     string
		want    any
		wantErr bool
	}{
		{"s=hello", "s", "hello", false},
		{"s=42", "s", "42", false},
		{"s=", "s", "", false},
		{"s=a=b", "s", "a=b", false},
		{"s=http://x:=y", "s", "http://x:=y", false},
		{"i=42", "i", int64(42), false},
		{"i=-7", "i", int64(-7), false},
		{"i=4.5", "", nil, true},
		{"i=four", "", nil, true},
		{"n=4.5", "n", 4.5, false},
		{"n=1e3", "n", 1000.0, false},
		{"n=x", "", nil, true},
		{"b=true", "b", true, false},
		{"b=no", "b", false, false},
		{"b=maybe", "", nil, true},
		{"a=1,2,3", "a", []any{int64(1), int64(2), int64(3)}, false},
		{"a=[1,2]", "a", []any{1.0, 2.0}, false},
		{"a=", "a", []any{}, false},
		{"a=1,x", "", nil, true},
		{"as=x,y", "as", []any{"x", "y"}, false},
		{`o={"k":1}`, "o", map[string]any{"k": 1.0}, false},
		{"o=notjson", "", nil, true},
		{"maybe=3", "maybe", int64(3), false},
		{"maybe=null", "maybe", nil, false},
		{"either=true", "either", true, false},
		{"either=text", "either", "text", false},
		{"e=x", "e", "x", false},
		{"unknown=12", "unknown", 12.0, false},
		{"unknown=true", "unknown", true, false},
		{"unknown=text", "unknown", "text", false},
		{`unknown="quoted"`, "unknown", `"quoted"`, false},
		{"s:=42", "s", 42.0, false},
		{`o:={"a":[1]}`, "o", map[string]any{"a": []any{1.0}}, false},
		{"s:=notjson", "", nil, true},
		{"noequals", "", nil, true},
		{"=value", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.pair, func(t *testing.T) {
			key, got, err := convertPair(schema, tt.pair)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("convertPair(%q) = %s, %#v; want an error", tt.pair, key, got)
				}
				return
			}
			if err != nil || key != tt.key || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("convertPair(%q) = %q, %#v, %v; want %q, %#v", tt.pair, key, got, err, tt.key, tt.want)
			}
		})
	}
}

// TestBuildArgs checks --args (inline, @file, @- for stdin) under
// key=value pairs, which win.
func TestBuildArgs(t *testing.T) {
	schema := parseSchema(json.RawMessage(conversionSchema))
	file := filepath.Join(t.TempDir(), "args.json")
	if err := os.WriteFile(file, []byte(`{"s":"from file","i":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _, _ := testEnv(t, `{"b":true}`, nil)
	tests := []struct {
		name  string
		bases []string
		pairs []string
		want  map[string]any
		err   bool
	}{
		{"inline", []string{`{"s":"x"}`}, nil, map[string]any{"s": "x"}, false},
		{"file then pair", []string{"@" + file}, []string{"i=2"}, map[string]any{"s": "from file", "i": int64(2)}, false},
		{"stdin", []string{"@-"}, nil, map[string]any{"b": true}, false},
		{"not an object", []string{`[1]`}, nil, nil, true},
		{"duplicate key", []string{`{"s":"a","s":"b"}`}, nil, nil, true},
		{"missing file", []string{"@/nonexistent"}, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := buildArgs(env, schema, tt.bases, tt.pairs)
			if tt.err {
				if err == nil {
					t.Fatalf("buildArgs = %v, want an error", got)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("buildArgs = %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}

// TestSignature checks the argument summary of the tools table.
func TestSignature(t *testing.T) {
	s := parseSchema(json.RawMessage(`{"type":"object","required":["b"],"properties":{"a":{"type":"string"},"b":{"type":["integer","null"]},"c":{}}}`))
	if got, want := signature("t", s), "t(b:integer|null, [a:string], [c])"; got != want {
		t.Fatalf("signature = %q, want %q", got, want)
	}
}

func FuzzConvertPair(f *testing.F) {
	for _, s := range []string{"a=1", "b:=[1,2]", "s=x,y", "o={}", "=", ":=", "x:=", "a=1,,2"} {
		f.Add(s)
	}
	schema := parseSchema(json.RawMessage(conversionSchema))
	f.Fuzz(func(t *testing.T, pair string) {
		key, _, err := convertPair(schema, pair)
		if err == nil && key == "" {
			t.Fatalf("convertPair(%q) accepted an empty key", pair)
		}
	})
}

func FuzzParseSchema(f *testing.F) {
	f.Add([]byte(conversionSchema))
	f.Add([]byte(`{"type":["a",{"x":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := parseSchema(json.RawMessage(data))
		_ = signature("t", s)
		for _, p := range s.Properties {
			_, _ = convertValue(p, "1,2")
		}
	})
}

// TestIsUnknownTool is the table of the errors taken as "no such tool".
func TestIsUnknownTool(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: "Unknown tool: x"}, true},
		{&mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: "Tool x not found"}, true},
		{&mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: "missing argument a"}, false},
		{&mcp.JSONRPCError{Code: -32603, Message: "Unknown tool: x"}, false},
		{errors.New("unknown tool"), false},
	}
	for _, tt := range tests {
		if got := isUnknownTool(fmt.Errorf("wrapped: %w", tt.err)); got != tt.want {
			t.Errorf("isUnknownTool(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
