package mcp

import (
	"context"
	"testing"
	"time"
)

// TestMemoryEventWaitersForgotten: waits that end, by an append or by
// their context, leave nothing behind in the store.
func TestMemoryEventWaitersForgotten(t *testing.T) {
	s := NewMemoryEventStore(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	for i := range 10 {
		if err := s.WaitEvents(ctx, "S", string(rune('a'+i)), 0); err == nil {
			t.Fatal("WaitEvents on an empty stream returned nil")
		}
	}
	done := make(chan error, 1)
	go func() { done <- s.WaitEvents(context.Background(), "S", "z", 0) }()
	for {
		s.mu.Lock()
		n := len(s.waiters)
		s.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.Append(context.Background(), "S", "z", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiters) != 0 {
		t.Fatalf("%d streams still have waiters recorded", len(s.waiters))
	}
}
