package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func TestReadEnv(t *testing.T) {
	tests := []struct {
		name, scenario, context string
		wantErr                 string
		wantContext             string
	}{
		{name: "plain", scenario: "tools_call"},
		{name: "context", scenario: "http-custom-headers", context: `{"name":"x","toolCalls":[]}`, wantContext: "toolCalls"},
		{name: "no scenario", wantErr: "MCP_CONFORMANCE_SCENARIO is not set"},
		{name: "bad context", scenario: "x", context: `[1]`, wantErr: "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("MCP_CONFORMANCE_SCENARIO", tt.scenario)
			t.Setenv("MCP_CONFORMANCE_CONTEXT", tt.context)
			t.Setenv("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
			env, err := readEnv("http://localhost:1/mcp")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if env.scenario != tt.scenario || env.url != "http://localhost:1/mcp" || env.version != "2025-11-25" {
				t.Errorf("env = %+v", env)
			}
			if _, ok := env.context[tt.wantContext]; tt.wantContext != "" && !ok {
				t.Errorf("context %v lacks %q", env.context, tt.wantContext)
			}
		})
	}
}

// recorder is a test server for the scenarios: it records the tool calls
// and the Mcp-Param-Region header of each.
type recorder struct {
	mu      sync.Mutex
	calls   []string
	regions []string
}

func (r *recorder) server() *mcp.Server {
	srv := mcp.NewServer("test-server", "1.0.0", nil)
	add := func(name, schema string) {
		srv.AddTools(&mcp.ServerTool{
			Tool: &mcp.Tool{Name: name, InputSchema: json.RawMessage(schema)},
			Handler: func(ctx context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				args, _ := p.Arguments.(json.RawMessage)
				region := ""
				if req := mcp.HTTPRequestFromContext(ctx); req != nil {
					region = req.Header.Get("Mcp-Param-Region")
				}
				r.mu.Lock()
				r.calls = append(r.calls, name+" "+string(args))
				r.regions = append(r.regions, region)
				r.mu.Unlock()
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("ok")}}, nil
			},
		})
	}
	add("add_numbers", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	add("json_schema_2020_12_tool", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"a":{"$anchor":"x","type":"string"}},"additionalProperties":false}`)
	add("json_schema_echo", `{"type":"object","properties":{"schema":{"type":"object"}},"required":["schema"]}`)
	add("test_custom_headers", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)
	return srv
}

func TestScenarios(t *testing.T) {
	tests := []struct {
		scenario, context string
		wantCall          string
		wantRegion        string
	}{
		{scenario: "tools_call", wantCall: `add_numbers {"a":5,"b":3}`},
		{scenario: "json-schema-2020-12-preservation",
			wantCall: `json_schema_echo {"schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"a":{"$anchor":"x","type":"string"}},"additionalProperties":false}}`},
		{scenario: "http-custom-headers", context: `{"toolCalls":[{"name":"test_custom_headers","arguments":{"region":"us-west1"}}]}`,
			wantCall: `test_custom_headers {"region":"us-west1"}`, wantRegion: "us-west1"},
	}
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		for _, tt := range tests {
			if tt.wantRegion != "" && version != mcp.Version20260728 {
				continue // Mcp-Param headers exist from 2026-07-28 on
			}
			t.Run(version+"/"+tt.scenario, func(t *testing.T) {
				rec := &recorder{}
				srv := rec.server()
				ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
				defer ts.Close()
				env := &scenarioEnv{scenario: tt.scenario, url: ts.URL + "/mcp", version: version}
				if tt.context != "" {
					if err := json.Unmarshal([]byte(tt.context), &env.context); err != nil {
						t.Fatal(err)
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if err := scenarios[tt.scenario](ctx, env); err != nil {
					t.Fatalf("scenario: %v", err)
				}
				rec.mu.Lock()
				defer rec.mu.Unlock()
				if len(rec.calls) != 1 || rec.calls[0] != tt.wantCall {
					t.Errorf("calls = %q, want [%q]", rec.calls, tt.wantCall)
				}
				if tt.wantRegion != "" && (len(rec.regions) != 1 || rec.regions[0] != tt.wantRegion) {
					t.Errorf("Mcp-Param-Region = %q, want %q", rec.regions, tt.wantRegion)
				}
			})
		}
	}
}

func TestScenarioNames(t *testing.T) {
	names := scenarioNames()
	if len(names) != len(scenarios) {
		t.Fatalf("scenarioNames lists %d of %d", len(names), len(scenarios))
	}
	for _, want := range []string{"initialize", "tools_call", "sse-retry", "auth/metadata-default", "http-custom-headers"} {
		if _, ok := scenarios[want]; !ok {
			t.Errorf("scenario %q missing", want)
		}
	}
}
