package redis_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
)

// FuzzChannelMessages: whatever is published on the backend's channels
// (another program sharing the Redis, a corrupted message) is either
// delivered as a well-formed event or dropped; it never crashes or stops
// a subscriber: a valid event published after it still arrives.
func FuzzChannelMessages(f *testing.F) {
	for _, s := range []string{`{"kind":"tools_list_changed"}`, `{"kind":"x","KIND":"y"}`, `{"kind":"task_status","data":{"a":1}}`, `[`, ``, `{"kind":1}`} {
		f.Add(s)
	}
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(m.Close)
	b := newBackend(f, m.Addr())
	got := make(chan *mcp.BusEvent, 16)
	unsub, err := b.EventBus().Subscribe(context.Background(), func(e *mcp.BusEvent) { got <- e })
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(unsub)
	n := 0
	f.Fuzz(func(t *testing.T, payload string) {
		n++
		sentinel := fmt.Sprintf("sentinel-%d", n)
		m.Publish("test:events", payload)
		m.Publish("test:events", `{"kind":"resource_updated","uri":"`+sentinel+`"}`)
		timeout := time.After(5 * time.Second)
		for {
			select {
			case e := <-got:
				if e == nil || e.Kind == "" && e.URI != "" {
					t.Fatalf("malformed event delivered: %+v", e)
				}
				if e.URI == sentinel {
					return
				}
			case <-timeout:
				t.Fatal("the subscriber stopped receiving")
			}
		}
	})
}
