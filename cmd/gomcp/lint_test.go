package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestLintTools is the rule table of lint.
func TestLintTools(t *testing.T) {
	schema := func(s string) any { return json.RawMessage(s) }
	good := schema(`{"type":"object","properties":{"q":{"type":"string","description":"What to find."}}}`)
	tests := []struct {
		name string
		tool *mcp.Tool
		want []string // rules, in order
	}{
		{"clean", &mcp.Tool{Name: "search", Description: "Finds.", InputSchema: good}, nil},
		{"spaces", &mcp.Tool{Name: "my tool", Description: "d", InputSchema: good}, []string{"name-chars"}},
		{"dots", &mcp.Tool{Name: "admin.list", Description: "d", InputSchema: good}, []string{"name-portable"}},
		{"empty name", &mcp.Tool{Name: "", Description: "d", InputSchema: good}, []string{"name-length"}},
		{"no description", &mcp.Tool{Name: "t", InputSchema: good}, []string{"description"}},
		{"root not object", &mcp.Tool{Name: "t", Description: "d", InputSchema: schema(`{"type":"string"}`)}, []string{"schema-root"}},
		{"type array", &mcp.Tool{Name: "t", Description: "d", InputSchema: schema(`{"type":"object","properties":{"n":{"type":["integer","null"],"description":"n"}}}`)}, []string{"type-array"}},
		{"keywords", &mcp.Tool{Name: "t", Description: "d", InputSchema: schema(`{"type":"object","oneOf":[{}],"properties":{"a":{"$ref":"#/$defs/a","description":"a"}},"$defs":{"a":{"type":"string"}}}`)}, []string{"keyword", "keyword", "keyword"}},
		{"property without description", &mcp.Tool{Name: "t", Description: "d", InputSchema: schema(`{"type":"object","properties":{"a":{"type":"string"}}}`)}, []string{"description"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules []string
			for _, p := range lintTools([]*mcp.Tool{tt.tool}) {
				rules = append(rules, p.Rule)
			}
			if !reflect.DeepEqual(rules, tt.want) {
				t.Fatalf("rules %q, want %q", rules, tt.want)
			}
		})
	}
	dup := lintTools([]*mcp.Tool{{Name: "a", Description: "d", InputSchema: good}, {Name: "a", Description: "d", InputSchema: good}})
	if len(dup) != 1 || dup[0].Rule != "name-unique" {
		t.Fatalf("duplicate names: %+v", dup)
	}
}

// TestLintExit checks exit code 6 and the JSON report against the
// everything-server, whose JSON Schema 2020-12 tool is not portable.
func TestLintExit(t *testing.T) {
	r := runCLI(t, "lint", "--json", everythingURL)
	if r.code != exitLint {
		t.Fatalf("exit %d, want %d; stderr %s", r.code, exitLint, r.stderr)
	}
	checkErrorLine(t, r, "lint_problems")
	var report struct {
		Tools    int       `json:"tools"`
		Problems []problem `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || report.Tools == 0 || len(report.Problems) == 0 {
		t.Fatalf("report %s: %v", r.stdout, err)
	}
	for _, p := range report.Problems {
		if p.Tool != "json_schema_2020_12_tool" {
			t.Errorf("unexpected problem %+v", p)
		}
	}
}

func FuzzLintSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":["string","null"]}},"$defs":{"x":{"oneOf":[{}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = lintSchema("t", json.RawMessage(data))
	})
}
