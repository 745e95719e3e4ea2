package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// collector gathers what a subscriber receives.
type collector[T any] struct {
	mu  sync.Mutex
	got []T
	ch  chan struct{}
}

func newCollector[T any]() *collector[T] { return &collector[T]{ch: make(chan struct{}, 1)} }

func (c *collector[T]) add(v T) {
	c.mu.Lock()
	c.got = append(c.got, v)
	c.mu.Unlock()
	select {
	case c.ch <- struct{}{}:
	default:
	}
}

func (c *collector[T]) snapshot() []T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]T(nil), c.got...)
}

// wait waits until n values arrived, failing the test after waitFor.
func (c *collector[T]) wait(t *testing.T, n int) []T {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		if got := c.snapshot(); len(got) >= n {
			return got
		}
		select {
		case <-c.ch:
		case <-deadline:
			t.Fatalf("got %d values after %v, want %d", len(c.snapshot()), waitFor, n)
		}
	}
}

// TestEventBus checks an mcp.EventBus: every subscriber, the publisher's
// own included, gets every event in publishing order with its fields
// intact; unsubscribing stops delivery and may be repeated; publishing
// with no subscriber succeeds.
func TestEventBus(t *testing.T, newBus func(t *testing.T) mcp.EventBus) {
	ctx := context.Background()
	t.Run("NoSubscribers", func(t *testing.T) {
		if err := newBus(t).Publish(ctx, &mcp.BusEvent{Kind: mcp.BusToolsListChanged}); err != nil {
			t.Fatalf("Publish with no subscriber: %v", err)
		}
	})
	t.Run("FanOutInOrder", func(t *testing.T) {
		bus := newBus(t)
		var cs []*collector[mcp.BusEvent]
		for range 3 {
			c := newCollector[mcp.BusEvent]()
			unsub, err := bus.Subscribe(ctx, func(e *mcp.BusEvent) { c.add(*e) })
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(unsub)
			cs = append(cs, c)
		}
		want := []mcp.BusEvent{
			{Kind: mcp.BusToolsListChanged, Origin: "a"},
			{Kind: mcp.BusResourceUpdated, Origin: "a", URI: "file:///x"},
			{Kind: mcp.BusTaskStatus, Origin: "b", TaskID: "t1", Data: []byte(`{"taskId":"t1"}`)},
			{Kind: mcp.BusListChanged, Origin: "b", Method: "notifications/events/list_changed"},
		}
		for i := range 20 {
			e := want[i%len(want)]
			if err := bus.Publish(ctx, &e); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range cs {
			got := c.wait(t, 20)
			for i, e := range got[:20] {
				if w := want[i%len(want)]; fmt.Sprint(e) != fmt.Sprint(w) {
					t.Fatalf("event %d = %+v, want %+v", i, e, w)
				}
			}
		}
	})
	t.Run("Unsubscribe", func(t *testing.T) {
		bus := newBus(t)
		kept, dropped := newCollector[mcp.BusEvent](), newCollector[mcp.BusEvent]()
		unsubKept, err := bus.Subscribe(ctx, func(e *mcp.BusEvent) { kept.add(*e) })
		if err != nil {
			t.Fatal(err)
		}
		defer unsubKept()
		unsub, err := bus.Subscribe(ctx, func(e *mcp.BusEvent) { dropped.add(*e) })
		if err != nil {
			t.Fatal(err)
		}
		unsub()
		unsub() // idempotent
		if err := bus.Publish(ctx, &mcp.BusEvent{Kind: mcp.BusPromptsListChanged}); err != nil {
			t.Fatal(err)
		}
		kept.wait(t, 1)
		time.Sleep(quiet)
		if n := len(dropped.snapshot()); n != 0 {
			t.Fatalf("an unsubscribed function got %d events", n)
		}
	})
}

// TestSessionRouter checks an mcp.SessionRouter: messages reach the
// subscribers of their session only, in order, with their fields intact;
// unsubscribing stops delivery. A router that is an
// mcp.CountingSessionRouter must report the subscriptions of the session
// a message reached, every one of which gets it.
func TestSessionRouter(t *testing.T, newRouter func(t *testing.T) mcp.SessionRouter) {
	ctx := context.Background()
	t.Run("PerSession", func(t *testing.T) {
		r := newRouter(t)
		a1, a2, b := newCollector[mcp.SessionMessage](), newCollector[mcp.SessionMessage](), newCollector[mcp.SessionMessage]()
		for _, s := range []struct {
			id string
			c  *collector[mcp.SessionMessage]
		}{{"A", a1}, {"A", a2}, {"B", b}} {
			unsub, err := r.Subscribe(ctx, s.id, func(m *mcp.SessionMessage) { s.c.add(*m) })
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(unsub)
		}
		for i := range 10 {
			m := &mcp.SessionMessage{Kind: mcp.RouteResponse, Origin: "x", Data: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{}}`, i)}
			if err := r.Publish(ctx, "A", m); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []*collector[mcp.SessionMessage]{a1, a2} {
			got := c.wait(t, 10)
			for i, m := range got {
				want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i)
				if m.Kind != mcp.RouteResponse || m.Origin != "x" || string(m.Data) != want {
					t.Fatalf("message %d = %+v (data %s), want data %s", i, m, m.Data, want)
				}
			}
		}
		time.Sleep(quiet)
		if n := len(b.snapshot()); n != 0 {
			t.Fatalf("session B got %d messages of session A", n)
		}
	})
	t.Run("Count", func(t *testing.T) { testRouterCount(t, newRouter(t)) })
	t.Run("Unsubscribe", func(t *testing.T) {
		r := newRouter(t)
		c := newCollector[mcp.SessionMessage]()
		unsub, err := r.Subscribe(ctx, "S", func(m *mcp.SessionMessage) { c.add(*m) })
		if err != nil {
			t.Fatal(err)
		}
		unsub()
		unsub()
		if err := r.Publish(ctx, "S", &mcp.SessionMessage{Kind: mcp.RouteClose}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(quiet)
		if n := len(c.snapshot()); n != 0 {
			t.Fatalf("an unsubscribed function got %d messages", n)
		}
	})
}

// testRouterCount checks the counts of a CountingSessionRouter: none
// before anyone subscribed, each subscription of the session (not of
// another session) once, and none after unsubscribing.
func testRouterCount(t *testing.T, r mcp.SessionRouter) {
	cr, ok := r.(mcp.CountingSessionRouter)
	if !ok {
		t.Skipf("%T is not an mcp.CountingSessionRouter", r)
	}
	ctx := context.Background()
	publish := func(want int) {
		t.Helper()
		n, err := cr.PublishCount(ctx, "C", &mcp.SessionMessage{Kind: mcp.RouteState, Origin: "x", Data: []byte(`"n"`)})
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Fatalf("PublishCount reached %d subscriptions, want %d", n, want)
		}
	}
	publish(0)
	var cs []*collector[mcp.SessionMessage]
	var unsubs []func()
	for _, id := range []string{"C", "C", "C", "D"} {
		c := newCollector[mcp.SessionMessage]()
		unsub, err := r.Subscribe(ctx, id, func(m *mcp.SessionMessage) { c.add(*m) })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(unsub)
		cs, unsubs = append(cs, c), append(unsubs, unsub)
	}
	publish(3)
	for _, c := range cs[:3] {
		c.wait(t, 1)
	}
	unsubs[0]()
	publish(2)
	for _, c := range cs[1:3] {
		c.wait(t, 2)
	}
	unsubs[1]()
	unsubs[2]()
	// A subscription made after the last one ended, which Subscribe
	// returns once it is in place, also puts the end in place where
	// subscriptions share a connection to a server that handles one
	// connection's commands in order (Redis).
	unsub, err := r.Subscribe(ctx, "E", func(*mcp.SessionMessage) {})
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()
	publish(0)
}
