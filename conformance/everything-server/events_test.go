package main

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// TestTickEvents: test.tick is listed with poll and push delivery, and
// each emit_tick call records one occurrence with the next n, which a
// poll from an earlier cursor returns in order.
func TestTickEvents(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) {
			cs := connect(t, version, nil)
			ctx := context.Background()
			types, err := events.ListTypes(ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			if len(types) != 1 || types[0].Name != tickEvent || len(types[0].Delivery) != 2 {
				t.Fatalf("event types %+v, want test.tick with poll and push", types)
			}
			if p := types[0].PayloadSchema.Properties["n"]; p == nil || p.Type != "integer" {
				t.Errorf("payload schema %+v, want n: integer", types[0].PayloadSchema)
			}
			start, err := events.Poll(ctx, cs, &events.PollParams{Name: tickEvent, Arguments: []byte(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if res, err := cs.CallTool(ctx, "emit_tick", map[string]any{}, nil); err != nil || res.IsError {
					t.Fatalf("emit_tick: %v %+v", err, res)
				}
			}
			res, err := events.Poll(ctx, cs, &events.PollParams{Name: tickEvent, Arguments: []byte(`{}`), Cursor: start.Cursor})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Events) != 2 || string(res.Events[0].Data) != `{"n":1}` || string(res.Events[1].Data) != `{"n":2}` {
				t.Fatalf("ticks %+v, want n 1 then 2", res.Events)
			}
		})
	}
}
