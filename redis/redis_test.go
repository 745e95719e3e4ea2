package redis_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/redis"
)

// newBackend returns a backend on a fresh client of addr (newClient),
// closed with t.
func newBackend(t testing.TB, addr string) *redis.Backend {
	t.Helper()
	client := newClient(t, addr)
	b := redis.New(client, &redis.Options{KeyPrefix: "test:"})
	t.Cleanup(func() {
		_ = b.Close()
		_ = client.Close()
	})
	return b
}

// server returns the Redis of the tests: the one redisAddr names
// (flushed first) if any, else a miniredis.
func server(t *testing.T) (addr string, m *miniredis.Miniredis) {
	t.Helper()
	if addr := redisAddr(); addr != "" {
		c := newClient(t, addr)
		defer c.Close()
		flush(t, c)
		return addr, nil
	}
	m = miniredis.RunT(t)
	return m.Addr(), m
}

// miniClock advances a miniredis's TTL clock; with a real server it sleeps.
type miniClock struct{ m *miniredis.Miniredis }

func (c *miniClock) Advance(_ *testing.T, d time.Duration) {
	if c.m == nil {
		time.Sleep(d)
		return
	}
	c.m.FastForward(d)
}

func TestEventBus(t *testing.T) {
	storetest.TestEventBus(t, func(t *testing.T) mcp.EventBus {
		addr, _ := server(t)
		return newBackend(t, addr).EventBus()
	})
}

func TestSessionRouter(t *testing.T) {
	storetest.TestSessionRouter(t, func(t *testing.T) mcp.SessionRouter {
		addr, _ := server(t)
		return newBackend(t, addr).SessionRouter()
	})
}

// TestSessionRouterCountAcrossBackends: a message published for a
// session counts each subscription of the publishing backend, and each
// other backend subscribed once, as Redis reports its connection.
func TestSessionRouterCountAcrossBackends(t *testing.T) {
	addr, _ := server(t)
	ctx := t.Context()
	bs := []*redis.Backend{newBackend(t, addr), newBackend(t, addr), newBackend(t, addr)}
	got := make(chan string, 16)
	subscribe := func(b *redis.Backend, name string) {
		t.Helper()
		unsub, err := b.SessionRouter().Subscribe(ctx, "S", func(m *mcp.SessionMessage) { got <- name })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(unsub)
	}
	subscribe(bs[0], "0a")
	subscribe(bs[0], "0b")
	subscribe(bs[1], "1")
	subscribe(bs[2], "2")
	for _, tt := range []struct {
		from int
		want int
	}{
		{0, 4}, // its own two, and backends 1 and 2
		{1, 3}, // its own, and backends 0 and 2 once each
	} {
		n, err := bs[tt.from].SessionRouter().PublishCount(ctx, "S", &mcp.SessionMessage{Kind: mcp.RouteState, Data: []byte(`"n"`)})
		if err != nil {
			t.Fatal(err)
		}
		if n != tt.want {
			t.Errorf("PublishCount from backend %d = %d, want %d", tt.from, n, tt.want)
		}
		seen := map[string]bool{}
		for range 4 {
			select {
			case name := <-got:
				seen[name] = true
			case <-time.After(5 * time.Second):
				t.Fatalf("delivered to %v only", seen)
			}
		}
		if len(seen) != 4 {
			t.Errorf("delivered to %v, want all four subscriptions", seen)
		}
	}
}

func TestSessionStore(t *testing.T) {
	clock := &miniClock{}
	storetest.TestSessionStore(t, func(t *testing.T) mcp.SessionStore {
		addr, m := server(t)
		clock.m = m
		return newBackend(t, addr).SessionStore()
	}, clock)
}

func TestEventStore(t *testing.T) {
	storetest.TestEventStore(t, func(t *testing.T) mcp.EventStore {
		addr, _ := server(t)
		return newBackend(t, addr).EventStore()
	})
}

func TestEventWaiter(t *testing.T) {
	storetest.TestEventWaiter(t, func(t *testing.T) mcp.EventStore {
		addr, _ := server(t)
		return newBackend(t, addr).EventStore()
	})
}

func TestTaskStore(t *testing.T) {
	clock := &miniClock{}
	storetest.TestTaskStore(t, func(t *testing.T) mcp.TaskStore {
		addr, m := server(t)
		clock.m = m
		return newBackend(t, addr).TaskStore()
	}, clock)
}

// TestScaleOut runs the multi-instance scenarios: three instances, each
// with its own Redis client, on one Redis.
func TestScaleOut(t *testing.T) {
	storetest.TestScaleOut(t, func(t *testing.T) func(int) storetest.Backends {
		addr, _ := server(t)
		return func(int) storetest.Backends {
			b := newBackend(t, addr)
			return storetest.Backends{
				EventBus:      b.EventBus(),
				SessionRouter: b.SessionRouter(),
				SessionStore:  b.SessionStore(),
				EventStore:    b.EventStore(),
				TaskStore:     b.TaskStore(),
			}
		}
	})
}

// TestEventQueueOrder: events appended concurrently to many streams are
// written in order, each stream's, and another backend reads them all once
// the first has written its queue (Close).
func TestEventQueueOrder(t *testing.T) {
	addr, _ := server(t)
	writer, reader := newBackend(t, addr), newBackend(t, addr)
	ctx := t.Context()
	const streams, events = 8, 200
	var wg sync.WaitGroup
	for s := range streams {
		wg.Go(func() {
			for i := 1; i <= events; i++ {
				if err := writer.EventStore().Append(ctx, "S", fmt.Sprint(s), fmt.Appendf(nil, "%d", i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	for s := range streams {
		i := 0
		for data, err := range reader.EventStore().After(ctx, "S", fmt.Sprint(s), 0) {
			if err != nil {
				t.Fatalf("stream %d: %v", s, err)
			}
			if i++; string(data) != fmt.Sprint(i) {
				t.Fatalf("stream %d: event %d is %q", s, i, data)
			}
		}
		if i != events {
			t.Fatalf("stream %d: %d events, want %d", s, i, events)
		}
	}
}
