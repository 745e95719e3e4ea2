package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
)

// FuzzChannelMessages: whatever is published on the backend's channels
// (another program sharing the Redis, a corrupted message) is either
// delivered as a well-formed event or dropped; it never crashes a
// subscriber.
func FuzzChannelMessages(f *testing.F) {
	for _, s := range []string{`{"kind":"tools_list_changed"}`, `{"kind":"x","KIND":"y"}`, `{"kind":"task_status","data":{"a":1}}`, `[`, ``, `{"kind":1}`} {
		f.Add(s)
	}
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(m.Close)
	f.Fuzz(func(t *testing.T, payload string) {
		b := newBackend(t, m.Addr())
		got := make(chan *mcp.BusEvent, 1)
		unsub, err := b.EventBus().Subscribe(context.Background(), func(e *mcp.BusEvent) { got <- e })
		if err != nil {
			t.Fatal(err)
		}
		defer unsub()
		m.Publish("test:events", payload)
		select {
		case e := <-got:
			if e == nil {
				t.Fatal("nil event")
			}
		case <-time.After(20 * time.Millisecond):
		}
	})
}
