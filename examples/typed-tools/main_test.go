package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestForecast(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, "forecast", map[string]any{"city": "Lisbon", "days": 2, "units": "fahrenheit"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Content[0].Text != "Lisbon, highs in fahrenheit: 68 70" {
		t.Errorf("result = %+v, text %q", res, res.Content[0].Text)
	}
	var got forecast
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if got.City != "Lisbon" || len(got.Highs) != 2 || got.Highs[1] != 69.8 {
		t.Errorf("structured = %+v", got)
	}

	// An argument outside the enum is a tool error the model can read.
	res, err = cs.CallTool(ctx, "forecast", map[string]any{"city": "Lisbon", "units": "kelvin"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].Text, "units") {
		t.Errorf("bad units: %+v %q", res, res.Content[0].Text)
	}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.OutputSchema == nil || !strings.Contains(string(tool.InputSchema.(json.RawMessage)), `"enum":["celsius","fahrenheit"]`) {
			t.Errorf("tool = %s %s", tool.InputSchema, tool.OutputSchema)
		}
	}
}
