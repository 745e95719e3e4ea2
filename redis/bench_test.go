package redis_test

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
)

// The cost of scaling out, per tools/call: through the round-robin proxy
// to three instances on every Redis backend (miniredis, in-process: its
// CPU is counted too), against the same proxy in front of one instance
// with no shared state. A 2026-07-28 call sends Redis nothing
// (TestStatelessCallsTouchNoStore); a legacy one stores its response event
// (its session is read once per instance). This measures wall time with
// Redis in-process; the server CPU per call against a real redis-server is
// the bench module's BenchmarkScaleOut, which BENCHMARKS.md reports.

func benchCalls(b *testing.B, url, version string) {
	ctx := context.Background()
	cs, err := mcp.NewClient("b", "v1", &mcp.ClientOptions{ProtocolVersion: version}).Connect(ctx,
		mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{DisableStandaloneSSE: true}))
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := map[string]any{"text": "x"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, "echo", args, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToolsCall(b *testing.B) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(version+"/single", func(b *testing.B) {
			c := storetest.StartCluster(b, func(testing.TB, int) storetest.Backends { return storetest.Backends{} }, &storetest.ClusterOptions{Instances: 1})
			benchCalls(b, c.URL, version)
		})
		b.Run(version+"/redis3", func(b *testing.B) {
			m := miniredis.RunT(b)
			c := storetest.StartCluster(b, func(tb testing.TB, _ int) storetest.Backends {
				be := newBackend(tb, m.Addr())
				return storetest.Backends{EventBus: be.EventBus(), SessionRouter: be.SessionRouter(), SessionStore: be.SessionStore(), EventStore: be.EventStore(), TaskStore: be.TaskStore()}
			}, nil)
			benchCalls(b, c.URL, version)
		})
	}
}
