package mcp

import "context"

// An EventWaiter is an EventStore that can tell a reader when a stream
// grows. A streamable HTTP handler resuming a stream that another
// instance of the server is writing (shared sessions) waits with it
// instead of reading the store again and again; with a store that is not
// an EventWaiter, or whose wait fails, it reads the store at a bounded
// interval instead.
type EventWaiter interface {
	// WaitEvents returns nil once the stream holds more than index events
	// (at once if it does already), ctx.Err() if ctx ends first, or
	// another error if the store cannot wait now. It returns for no
	// other reason: appends to other streams do not end it. The stream
	// need not exist yet.
	WaitEvents(ctx context.Context, sessionID, streamID string, index int) error
}

var _ EventWaiter = (*MemoryEventStore)(nil)

// waitKey names a stream in MemoryEventStore.waiters.
type waitKey struct{ session, stream string }

// eventWait is what the readers waiting for one stream share: ch is
// closed at the stream's next append.
type eventWait struct {
	ch      chan struct{}
	waiting int
}

// WaitEvents waits until the stream holds more than index events.
func (s *MemoryEventStore) WaitEvents(ctx context.Context, sessionID, streamID string, index int) error {
	k := waitKey{sessionID, streamID}
	for {
		s.mu.Lock()
		if st := s.sessions[sessionID][streamID]; st != nil && st.first+len(st.events)-1 > index {
			s.mu.Unlock()
			return nil
		}
		if s.waiters == nil {
			s.waiters = map[waitKey]*eventWait{}
		}
		w := s.waiters[k]
		if w == nil {
			w = &eventWait{ch: make(chan struct{})}
			s.waiters[k] = w
		}
		w.waiting++
		s.mu.Unlock()
		select {
		case <-w.ch:
			// Appended: check the count again.
		case <-ctx.Done():
			s.mu.Lock()
			if w.waiting--; w.waiting == 0 && s.waiters[k] == w {
				delete(s.waiters, k)
			}
			s.mu.Unlock()
			return ctx.Err()
		}
	}
}

// wakeLocked ends the waits for a stream that just grew. s.mu is held.
func (s *MemoryEventStore) wakeLocked(sessionID, streamID string) {
	if len(s.waiters) == 0 {
		return
	}
	k := waitKey{sessionID, streamID}
	if w := s.waiters[k]; w != nil {
		close(w.ch)
		delete(s.waiters, k)
	}
}
