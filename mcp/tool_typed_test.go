package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type weatherIn struct {
	City  string `json:"city" jsonschema:"the city to report on"`
	Days  int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
	Units string `json:"units,omitempty"`
}

type weatherOut struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
}

func weatherTools() []*ServerTool {
	plain := NewTool("weather_text", "weather as text", func(ctx context.Context, ss *ServerSession, in weatherIn) ([]*Content, error) {
		return []*Content{NewTextContent(in.City + " is sunny")}, nil
	}, Input(Property("units", Enum("metric", "imperial"))), ReadOnlyHint(true), IdempotentHint(true))
	structured := NewStructuredTool("weather", "weather as data", func(ctx context.Context, ss *ServerSession, in weatherIn) (weatherOut, error) {
		if in.City == "Atlantis" {
			return weatherOut{}, errors.New("no weather under the sea")
		}
		return weatherOut{City: in.City, Temperature: 21.5}, nil
	}, ToolTitle("Weather"))
	return []*ServerTool{plain, structured}
}

func TestTypedToolSchemas(t *testing.T) {
	tools := weatherTools()
	in, _ := json.Marshal(tools[0].Tool.InputSchema)
	for _, want := range []string{`"required":["city"]`, `"description":"the city to report on"`, `"enum":["metric","imperial"]`, `"minimum":1`} {
		if !strings.Contains(string(in), want) {
			t.Errorf("input schema %s lacks %s", in, want)
		}
	}
	if a := tools[0].Tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint {
		t.Errorf("ReadOnly annotations: %+v", a)
	}
	out, _ := json.Marshal(tools[1].Tool.OutputSchema)
	if !strings.Contains(string(out), `"temperature":{"type":"number"}`) {
		t.Errorf("output schema %s", out)
	}
}

func TestTypedToolCalls(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(weatherTools()...)
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		ctx := context.Background()
		for range cs.Tools(ctx, nil) { // lets the client learn the output schemas
		}
		tests := []struct {
			tool    string
			args    any
			isError bool
			want    string
		}{
			{"weather_text", map[string]any{"city": "Paris"}, false, "Paris is sunny"},
			{"weather", map[string]any{"city": "Paris", "days": 3}, false, `{"city":"Paris","temperature":21.5}`},
			{"weather", map[string]any{"days": 3}, true, "city"},
			{"weather", map[string]any{"city": "Paris", "days": 9}, true, "days"},
			{"weather", map[string]any{"city": 5}, true, "city"},
			{"weather_text", map[string]any{"city": "Paris", "units": "kelvin"}, true, "units"},
			{"weather", map[string]any{"city": "Atlantis"}, true, "no weather under the sea"},
		}
		for _, tt := range tests {
			res, err := cs.CallTool(ctx, tt.tool, tt.args, nil)
			if err != nil {
				t.Fatalf("%s(%v): %v", tt.tool, tt.args, err)
			}
			text := res.Content[0].Text
			if res.IsError != tt.isError || !strings.Contains(text, tt.want) {
				t.Errorf("%s(%v) = %q (isError %v), want %q (isError %v)", tt.tool, tt.args, text, res.IsError, tt.want, tt.isError)
			}
			if tt.tool == "weather" && !tt.isError {
				if sc, _ := res.StructuredContent.(json.RawMessage); string(sc) != tt.want {
					t.Errorf("structuredContent %s, want %s", sc, tt.want)
				}
			}
		}
	})
}

func TestClientChecksStructuredContent(t *testing.T) {
	server := NewServer("s", "v1", nil)
	// A tool that declares an output schema but returns content that does
	// not match it.
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "liar", InputSchema: map[string]any{"type": "object"},
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{Content: []*Content{}, StructuredContent: json.RawMessage(`{"n":"three"}`)}, nil
		},
	})
	cs, _ := connect(t, server, nil)
	for range cs.Tools(context.Background(), nil) {
	}
	_, err := cs.CallTool(context.Background(), "liar", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "output schema") {
		t.Fatalf("mismatching structuredContent: %v, want an error", err)
	}
}

func BenchmarkTypedCallTool(b *testing.B) {
	type eightArgs struct {
		A string  `json:"a"`
		B int     `json:"b"`
		C bool    `json:"c"`
		D float64 `json:"d"`
		E string  `json:"e,omitempty"`
		F []int   `json:"f,omitempty"`
		G string  `json:"g,omitempty"`
		H int     `json:"h,omitempty"`
	}
	server := NewServer("s", "v1", nil)
	server.AddTools(NewTool("t", "", func(ctx context.Context, ss *ServerSession, in eightArgs) ([]*Content, error) {
		return []*Content{NewTextContent(in.A)}, nil
	}))
	cs, _ := connect(b, server, nil)
	args := map[string]any{"a": "x", "b": 1, "c": true, "d": 1.5, "e": "y", "f": []int{1, 2}, "g": "z", "h": 3}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, "t", args, nil); err != nil {
			b.Fatal(err)
		}
	}
}
