package otel

import (
	"context"
	"slices"
	"testing"
)

// TestOperationMetrics checks the operation histograms: one data point per
// method on each side, the conventional buckets, the method and tool
// attributes, and no identifiers.
func TestOperationMetrics(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cs := connect(t, server, client)
			for range 3 {
				if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := cs.CallTool(context.Background(), "fail", map[string]any{}, nil); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"mcp.client.operation.duration", "mcp.server.operation.duration"} {
				var greet, fail int
				for _, dp := range tm.histogram(t, name) {
					if !slices.Equal(dp.Bounds, durationBuckets) {
						t.Errorf("%s: bounds %v", name, dp.Bounds)
					}
					a := attrs(dp.Attributes.ToSlice())
					for _, k := range []string{"jsonrpc.request.id", "mcp.session.id", "mcp.resource.uri", "client.address"} {
						if _, ok := a[k]; ok {
							t.Errorf("%s has the identifier %s", name, k)
						}
					}
					if a["mcp.method.name"] != "tools/call" {
						continue
					}
					if a["mcp.protocol.version"] != era.want || a["network.transport"] != "pipe" || a["gen_ai.operation.name"] != "execute_tool" {
						t.Errorf("%s: attributes %v", name, a)
					}
					switch a["gen_ai.tool.name"] {
					case "greet":
						greet += int(dp.Count)
						if _, ok := a["error.type"]; ok {
							t.Errorf("%s greet: error.type %q", name, a["error.type"])
						}
					case "fail":
						fail += int(dp.Count)
						if a["error.type"] != "tool_error" {
							t.Errorf("%s fail: error.type %q", name, a["error.type"])
						}
					}
				}
				if greet != 3 || fail != 1 {
					t.Errorf("%s: %d greet and %d fail measurements, want 3 and 1", name, greet, fail)
				}
			}
		})
	}
}

// TestUnknownToolNamesBounded checks that the names of unknown tools a
// client calls do not reach the server's measurements (any name a peer
// sends would be a new time series), while the spans keep them.
func TestUnknownToolNamesBounded(t *testing.T) {
	tm := newTelemetry(t)
	server := greeter()
	InstrumentServer(server, tm.opts)
	cs := connect(t, server, newClient(""))
	for _, name := range []string{"nope-1", "nope-2", "nope-3"} {
		if _, err := cs.CallTool(context.Background(), name, map[string]any{}, nil); err == nil {
			t.Fatalf("unknown tool %s: no error", name)
		}
	}
	var points int
	for _, dp := range tm.histogram(t, "mcp.server.operation.duration") {
		a := attrs(dp.Attributes.ToSlice())
		if a["mcp.method.name"] != "tools/call" {
			continue
		}
		points++
		if a["gen_ai.tool.name"] != "_OTHER" || a["error.type"] != "-32602" || dp.Count != 3 {
			t.Errorf("attributes %v, count %d: want one series, tool _OTHER, error.type -32602, count 3", a, dp.Count)
		}
	}
	if points != 1 {
		t.Errorf("%d series for the unknown tools, want 1", points)
	}
	if len(tm.ended("tools/call nope-2")) != 1 {
		t.Errorf("span names: %v", spanNames(tm))
	}
}

// TestSessionMetrics checks the session histograms: each side records its
// session's duration when the session ends.
func TestSessionMetrics(t *testing.T) {
	tm := newTelemetry(t)
	server, client := pair(tm, "2025-11-25")
	cs := connect(t, server, client)
	if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(tm.histogram(t, "mcp.client.session.duration")); n != 0 {
		t.Errorf("%d session measurements before the session ended", n)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mcp.client.session.duration", "mcp.server.session.duration"} {
		var points int
		waitFor(t, func() bool {
			points = 0
			for _, dp := range tm.histogram(t, name) {
				points += int(dp.Count)
			}
			return points > 0
		})
		for _, dp := range tm.histogram(t, name) {
			if !slices.Equal(dp.Bounds, durationBuckets) {
				t.Errorf("%s: bounds %v", name, dp.Bounds)
			}
			a := attrs(dp.Attributes.ToSlice())
			if a["mcp.protocol.version"] != "2025-11-25" || a["network.transport"] != "pipe" {
				t.Errorf("%s: attributes %v", name, a)
			}
			if _, ok := a["mcp.session.id"]; ok {
				t.Errorf("%s has mcp.session.id", name)
			}
		}
		if points != 1 {
			t.Errorf("%s: %d measurements, want 1", name, points)
		}
	}
}
