package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSlowListenerDoesNotDelayOthers delivers a list change to two listen
// streams, one of whose clients stopped reading (its writes block): the
// other gets the notification at once, and the stuck one is ended once its
// queue is full, instead of holding up every broadcast after it.
func TestSlowListenerDoesNotDelayOthers(t *testing.T) {
	s := NewServer("s", "v1", nil)
	stuck := make(chan struct{})
	defer close(stuck)
	got := make(chan string, 64)
	slow := newListener(SubscriptionFilter{ToolsListChanged: true}, "slow", 0, func(ctx context.Context, method string, params any) error {
		select {
		case <-stuck:
		case <-ctx.Done():
		}
		return ctx.Err()
	})
	fast := newListener(SubscriptionFilter{ToolsListChanged: true}, "fast", 0, func(ctx context.Context, method string, params any) error {
		got <- method
		return nil
	})
	s.listeners.add(slow)
	s.listeners.add(fast)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slowDone := make(chan error, 1)
	go func() { slowDone <- slow.serve(ctx, s, nil) }()
	go fast.serve(ctx, s, nil)

	for i := range listenerQueue + 2 {
		s.listChanged(NotificationToolListChanged)
		select {
		case m := <-got:
			if m != NotificationToolListChanged {
				t.Fatalf("fast listener got %s", m)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("broadcast %d: the fast listener waited for the stuck one", i)
		}
	}
	select {
	case err := <-slowDone:
		if !errors.Is(err, errListenerTooSlow) {
			t.Errorf("stuck listener ended with %v, want errListenerTooSlow", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stuck listener was not ended when its queue filled")
	}
}

// TestListenerQueueKeepsOrder checks that queued notifications are written
// in the order they were broadcast.
func TestListenerQueueKeepsOrder(t *testing.T) {
	s := NewServer("s", "v1", nil)
	got := make(chan string, listenerQueue)
	l := newListener(SubscriptionFilter{}, 1, 0, func(ctx context.Context, method string, params any) error {
		got <- method
		return nil
	})
	want := []string{"a", "b", "c", "d"}
	for _, m := range want {
		if !l.enqueue(m, &struct{}{}) {
			t.Fatal("enqueue refused with room in the queue")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.serve(ctx, s, nil) }()
	for _, m := range want {
		if g := <-got; g != m {
			t.Fatalf("got %s, want %s", g, m)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("serve ended with %v, want context.Canceled", err)
	}
}
