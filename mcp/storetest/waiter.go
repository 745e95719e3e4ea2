package storetest

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestEventWaiter checks an mcp.EventStore that is also an
// mcp.EventWaiter: a wait returns at once when the stream already holds
// more events than asked, returns when an event is appended to its stream
// (one that did not exist yet included) and not for appends to other
// streams or sessions, and returns the context's error when it ends.
func TestEventWaiter(t *testing.T, newStore func(t *testing.T) mcp.EventStore) {
	ctx := context.Background()
	waiter := func(t *testing.T) (mcp.EventStore, mcp.EventWaiter) {
		s := newStore(t)
		w, ok := s.(mcp.EventWaiter)
		if !ok {
			t.Fatalf("%T is not an mcp.EventWaiter", s)
		}
		return s, w
	}
	t.Run("EventsThereAlready", func(t *testing.T) {
		s, w := waiter(t)
		for range 2 {
			if err := s.Append(ctx, "A", "1", []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
		}
		for index := range 2 {
			if err := waitEnded(t, startWait(ctx, w, "A", "1", index), waitFor); err != nil {
				t.Fatalf("WaitEvents(%d) with 2 events stored: %v", index, err)
			}
		}
	})
	t.Run("WakesOnAppend", func(t *testing.T) {
		s, w := waiter(t)
		if err := s.Append(ctx, "A", "1", []byte(`{"n":1}`)); err != nil {
			t.Fatal(err)
		}
		ch := startWait(ctx, w, "A", "1", 1)
		stillWaiting(t, ch, "with no new event")
		for _, other := range [][2]string{{"A", "2"}, {"B", "1"}} {
			if err := s.Append(ctx, other[0], other[1], []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
		}
		stillWaiting(t, ch, "on events of other streams")
		if err := s.Append(ctx, "A", "1", []byte(`{"n":2}`)); err != nil {
			t.Fatal(err)
		}
		if err := waitEnded(t, ch, waitFor); err != nil {
			t.Fatalf("WaitEvents after an append: %v", err)
		}
	})
	t.Run("StreamNotYetStored", func(t *testing.T) {
		s, w := waiter(t)
		ch := startWait(ctx, w, "A", "new", 0)
		stillWaiting(t, ch, "on a stream with no event")
		if err := s.Append(ctx, "A", "new", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if err := waitEnded(t, ch, waitFor); err != nil {
			t.Fatalf("WaitEvents after the first append: %v", err)
		}
	})
	t.Run("ContextEnds", func(t *testing.T) {
		_, w := waiter(t)
		dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if err := waitEnded(t, startWait(dctx, w, "A", "1", 0), waitFor); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("WaitEvents past its deadline: %v, want context.DeadlineExceeded", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		ch := startWait(cctx, w, "A", "1", 0)
		stillWaiting(t, ch, "before its context was cancelled")
		cancel()
		if err := waitEnded(t, ch, time.Second); !errors.Is(err, context.Canceled) {
			t.Fatalf("WaitEvents cancelled: %v, want context.Canceled", err)
		}
	})
}

// startWait starts a wait and returns where its result arrives.
func startWait(ctx context.Context, w mcp.EventWaiter, session, stream string, index int) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- w.WaitEvents(ctx, session, stream, index) }()
	return ch
}

// waitEnded returns the result of the wait ch, or fails the test if it
// does not end within the given time.
func waitEnded(t *testing.T, ch <-chan error, within time.Duration) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(within):
		t.Fatalf("the wait did not end within %v", within)
		return nil
	}
}

// stillWaiting fails the test if the wait ch ends within quiet; what says
// in which circumstance it should not have.
func stillWaiting(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("the wait ended (%v) %s", err, what)
	case <-time.After(quiet):
	}
}

// countingStore is an EventStore that counts the reads (After) made of
// it; countingWaiter is one whose inner store is an EventWaiter.
type countingStore struct {
	mcp.EventStore
	reads *atomic.Int64
}

var _ mcp.EventStore = countingStore{}

func (c countingStore) After(ctx context.Context, session, stream string, index int) iter.Seq2[[]byte, error] {
	c.reads.Add(1)
	return c.EventStore.After(ctx, session, stream, index)
}

type countingWaiter struct {
	countingStore
	mcp.EventWaiter
}

var (
	_ mcp.EventStore  = countingWaiter{}
	_ mcp.EventWaiter = countingWaiter{}
)

// counted wraps s so that its reads add to reads, keeping it an
// EventWaiter if it is one.
func counted(s mcp.EventStore, reads *atomic.Int64) mcp.EventStore {
	c := countingStore{s, reads}
	if w, ok := s.(mcp.EventWaiter); ok {
		return countingWaiter{c, w}
	}
	return c
}
