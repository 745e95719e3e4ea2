package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
)

// startRedisCluster starts three instances on m behind a round-robin
// proxy.
func startRedisCluster(t testing.TB, m *miniredis.Miniredis) *storetest.Cluster {
	return storetest.StartCluster(t, func(t testing.TB, _ int) storetest.Backends {
		b := newBackend(t, m.Addr())
		return storetest.Backends{EventBus: b.EventBus(), SessionRouter: b.SessionRouter(), SessionStore: b.SessionStore(), EventStore: b.EventStore(), TaskStore: b.TaskStore()}
	}, nil)
}

// TestStatelessCallsTouchNoStore: with every Redis backend plugged in, a
// 2026-07-28 tools/call sends Redis no command at all; a legacy one does
// (it loads its session in one transaction, and stores its response event
// for resumption).
func TestStatelessCallsTouchNoStore(t *testing.T) {
	m := miniredis.RunT(t)
	c := startRedisCluster(t, m)
	ctx := context.Background()
	modern, err := mcp.NewClient("t", "v1", &mcp.ClientOptions{ProtocolVersion: "2026-07-28"}).Connect(ctx, mcp.NewStreamableClientTransport(c.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer modern.Close()
	time.Sleep(50 * time.Millisecond) // subscriptions settle
	before := m.CommandCount()
	for range 9 {
		if _, err := modern.CallTool(ctx, "echo", map[string]any{"text": "x"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.CommandCount() - before; n != 0 {
		t.Fatalf("9 stateless tools/call sent Redis %d commands, want 0", n)
	}

	legacy, err := mcp.NewClient("t", "v1", &mcp.ClientOptions{ProtocolVersion: "2025-11-25"}).Connect(ctx, mcp.NewStreamableClientTransport(c.URL, &mcp.StreamableClientTransportOptions{DisableStandaloneSSE: true}))
	if err != nil {
		t.Fatal(err)
	}
	defer legacy.Close()
	time.Sleep(50 * time.Millisecond)
	before = m.CommandCount()
	for range 9 {
		if _, err := legacy.CallTool(ctx, "echo", map[string]any{"text": "x"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.CommandCount() - before; n == 0 {
		t.Fatal("9 legacy tools/call sent Redis no command: the session store is not in use")
	}
}
