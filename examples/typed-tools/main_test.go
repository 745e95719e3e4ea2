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
	// docs:region structured
	// DecodeStructured reads the structured content into the tool's
	// output type; a result without any is an error.
	got, err := mcp.DecodeStructured[forecast](res)
	if err != nil {
		t.Fatal(err)
	}
	// docs:endregion
	if got.City != "Lisbon" || len(got.Highs) != 2 || got.Highs[1] != 69.8 {
		t.Errorf("structured = %+v", got)
	}

	// docs:region invalid
	// An argument outside the enum is a tool error the model can read,
	// not a failed call.
	res, err = cs.CallTool(ctx, "forecast", map[string]any{"city": "Lisbon", "units": "kelvin"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].Text, "units") {
		t.Errorf("bad units: %+v %q", res, res.Content[0].Text)
	}
	// docs:endregion
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.OutputSchema == nil || !strings.Contains(string(tool.InputSchema.(json.RawMessage)), `"enum":["celsius","fahrenheit"]`) {
			t.Errorf("tool = %s %s", tool.InputSchema, tool.OutputSchema)
		}
	}
}

// Lists come in pages of ServerOptions.PageSize; the iterators follow the
// cursors, and ListTools returns one page at a time.
func TestPagination(t *testing.T) {
	ctx := context.Background()
	// docs:region pagesize
	server := mcp.NewServer("many", "v1.0.0", &mcp.ServerOptions{PageSize: 2})
	// docs:endregion
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		server.AddTools(mcp.NewStructuredTool(name, "", getForecast))
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var all []string
	// docs:region iterate
	for tool, err := range cs.Tools(ctx, nil) { // fetches the pages as it goes
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, tool.Name)
	}
	// docs:endregion
	if len(all) != 5 {
		t.Errorf("iterated %v", all)
	}
	pages := 0
	// docs:region pages
	params := &mcp.ListToolsParams{}
	for {
		page, err := cs.ListTools(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		pages++ // use page.Tools
		if page.NextCursor == "" {
			break
		}
		params.Cursor = page.NextCursor
	}
	// docs:endregion
	if pages != 3 {
		t.Errorf("%d pages, want 3", pages)
	}
}
