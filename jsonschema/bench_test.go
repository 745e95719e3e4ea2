package jsonschema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

// The fixture of the reference document (§3.1): a search_issues tool with 8
// properties, a valid and an invalid argument object, and large100, an
// array of 100 valid objects.

const toolSchemaText = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "query":            {"type": "string", "minLength": 1, "maxLength": 256, "description": "Free-text search query"},
    "repo":             {"type": "string", "pattern": "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", "description": "owner/name"},
    "state":            {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
    "limit":            {"type": "integer", "minimum": 1, "maximum": 100, "default": 30},
    "labels":           {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 10, "uniqueItems": true},
    "include_comments": {"type": "boolean"},
    "sort": {
      "type": "object",
      "properties": {
        "field":      {"type": "string", "enum": ["created", "updated", "comments"]},
        "descending": {"type": "boolean"}
      },
      "required": ["field"],
      "additionalProperties": false
    },
    "since":            {"type": "string", "format": "date-time"}
  },
  "required": ["query", "repo"],
  "additionalProperties": false
}`

const validArgs = `{"query": "panic in validator", "repo": "modelcontextprotocol/go-sdk", "state": "open", "limit": 25,
 "labels": ["bug", "jsonschema", "help wanted"], "include_comments": true,
 "sort": {"field": "updated", "descending": true}, "since": "2025-06-18T00:00:00Z"}`

const invalidArgs = `{"query": "panic in validator", "repo": "modelcontextprotocol/go-sdk", "state": "bogus", "limit": 500,
 "labels": ["bug", 7], "include_comments": true, "sort": {"field": "updated", "extra": 1}}`

// SearchIssuesArgs is the Go type of the fixture, for inference.
type SearchIssuesArgs struct {
	Query           string   `json:"query" jsonschema:"Free-text search query"`
	Repo            string   `json:"repo" jsonschema:"owner/name"`
	State           string   `json:"state,omitempty"`
	Limit           int      `json:"limit,omitempty"`
	Labels          []string `json:"labels,omitempty"`
	IncludeComments bool     `json:"include_comments,omitempty"`
	Sort            *struct {
		Field      string `json:"field"`
		Descending bool   `json:"descending,omitempty"`
	} `json:"sort,omitempty"`
	Since string `json:"since,omitempty"`
}

func large100() []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(validArgs)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func mustCompile(tb testing.TB, text string) *jsonschema.Resolved {
	tb.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		tb.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

func mustDecode(tb testing.TB, text []byte) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

func largeSchemaText() string {
	return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array", "items": ` + toolSchemaText + `}`
}

func BenchmarkValidate(b *testing.B) {
	rs := mustCompile(b, toolSchemaText)
	big := mustCompile(b, largeSchemaText())
	cases := []struct {
		name  string
		rs    *jsonschema.Resolved
		text  []byte
		valid bool
	}{
		{"valid", rs, []byte(validArgs), true},
		{"invalid", rs, []byte(invalidArgs), false},
		{"large100", big, large100(), true},
	}
	for _, c := range cases {
		v := mustDecode(b, c.text)
		b.Run(c.name+"/lib=ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.rs.Validate(v); (err == nil) != c.valid {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/lib=ours-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.rs.ValidateJSON(c.text); (err == nil) != c.valid {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeValidate(b *testing.B) {
	rs := mustCompile(b, toolSchemaText)
	data := []byte(validArgs)
	b.Run("lib=decode-only-encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lib=ours-validate-then-decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rs.ValidateJSON(data); err != nil {
				b.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCompile(b *testing.B) {
	text := []byte(toolSchemaText)
	b.Run("lib=parse-only-encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(text, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lib=ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s jsonschema.Schema
			if err := json.Unmarshal(text, &s); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Resolve(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lib=ours-unmarshal-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s jsonschema.Schema
			if err := s.UnmarshalJSON(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	var s jsonschema.Schema
	if err := json.Unmarshal(text, &s); err != nil {
		b.Fatal(err)
	}
	b.Run("lib=ours-resolve-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Resolve(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
