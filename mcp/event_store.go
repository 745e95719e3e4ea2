package mcp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
)

// An EventStore keeps the SSE events a streamable HTTP handler sends in
// legacy sessions (protocol 2025-03-26 to 2025-11-25), so that a client
// whose stream broke, or was closed by the server for polling, can resume
// it: it reconnects with GET and a Last-Event-ID header, and the handler
// replays the events it missed from the store.
//
// A stream is identified by a session ID and a stream ID. Its events are
// appended in order and numbered from 1 by their position. Implementations
// must be safe for concurrent use. Setting StreamableHTTPOptions.EventStore
// turns resumability on; protocol 2026-07-28 streams are never resumable.
type EventStore interface {
	// Append stores data as the next event of the stream.
	Append(ctx context.Context, sessionID, streamID string, data []byte) error
	// After returns the events of the stream that follow its first index
	// events, in order. It yields an error wrapping ErrEventsPurged if any
	// of them is no longer stored, and ErrUnknownStream if the store has
	// never seen the stream or has dropped it.
	After(ctx context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error]
	// SessionClosed drops every stream of the session.
	SessionClosed(ctx context.Context, sessionID string) error
}

// Errors an EventStore reports.
var (
	// ErrEventsPurged reports that events a client asked to replay were
	// dropped to keep the store within its limits.
	ErrEventsPurged = errors.New("mcp: events no longer stored")
	// ErrUnknownStream reports a stream the store does not hold.
	ErrUnknownStream = errors.New("mcp: unknown event stream")
)

// DefaultEventStoreMaxBytes is the capacity of a MemoryEventStore with
// no limit set: 10 MiB of event data.
const DefaultEventStoreMaxBytes = 10 << 20

// A MemoryEventStore is an EventStore in memory, bounded in size: when the
// data stored exceeds MaxBytes, the oldest events of all streams are
// dropped first. Create one with NewMemoryEventStore.
type MemoryEventStore struct {
	mu       sync.Mutex
	maxBytes int
	size     int
	count    int // events stored
	sessions map[string]map[string]*storedStream
	order    []*storedStream // one entry per stored event, oldest first
	head     int             // index in order of the oldest event
	waiters  map[waitKey]*eventWait
}

// storedStream holds the retained events of one stream.
type storedStream struct {
	session, id string
	first       int // index of events[0]; events before it were dropped
	events      [][]byte
	dead        bool // the session closed; entries in order are stale
}

// MemoryEventStoreOptions configure a MemoryEventStore. Nil means
// defaults.
type MemoryEventStoreOptions struct {
	// MaxBytes bounds the event data kept (default
	// DefaultEventStoreMaxBytes).
	MaxBytes int
}

// NewMemoryEventStore returns an empty store.
func NewMemoryEventStore(opts *MemoryEventStoreOptions) *MemoryEventStore {
	s := &MemoryEventStore{maxBytes: DefaultEventStoreMaxBytes, sessions: map[string]map[string]*storedStream{}}
	if opts != nil && opts.MaxBytes > 0 {
		s.maxBytes = opts.MaxBytes
	}
	return s
}

// Append stores data as the next event of the stream. The store keeps its
// own copy of data.
func (s *MemoryEventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	streams := s.sessions[sessionID]
	if streams == nil {
		streams = map[string]*storedStream{}
		s.sessions[sessionID] = streams
	}
	st := streams[streamID]
	if st == nil {
		st = &storedStream{session: sessionID, id: streamID, first: 1}
		streams[streamID] = st
	}
	st.events = append(st.events, append([]byte(nil), data...))
	s.order = append(s.order, st)
	s.size += len(data)
	s.count++
	s.evict()
	s.wakeLocked(sessionID, streamID)
	return nil
}

// evict drops the oldest events until the store fits its limit.
func (s *MemoryEventStore) evict() {
	for s.size > s.maxBytes && s.head < len(s.order) {
		st := s.order[s.head]
		s.order[s.head] = nil
		s.head++
		if st.dead || len(st.events) == 0 {
			continue
		}
		s.size -= len(st.events[0])
		s.count--
		st.events[0] = nil
		st.events = st.events[1:]
		st.first++
	}
	s.compact()
}

// compact drops consumed and stale entries from the queue once they make
// up most of it. Entries of live streams keep their order, so each stream's
// entries still match its events.
func (s *MemoryEventStore) compact() {
	if len(s.order) < 1024 || len(s.order) < 2*s.count {
		return
	}
	live := make([]*storedStream, 0, s.count)
	for _, st := range s.order[s.head:] {
		if st != nil && !st.dead {
			live = append(live, st)
		}
	}
	s.order, s.head = live, 0
}

// After returns the events of the stream after its first index events.
func (s *MemoryEventStore) After(_ context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	s.mu.Lock()
	st := s.sessions[sessionID][streamID]
	var events [][]byte
	var err error
	switch {
	case st == nil:
		err = fmt.Errorf("%w: session %q stream %q", ErrUnknownStream, sessionID, streamID)
	case index+1 < st.first:
		err = fmt.Errorf("%w: stream %q from event %d (oldest kept: %d)", ErrEventsPurged, streamID, index+1, st.first)
	case index-st.first+1 < len(st.events):
		events = append(events, st.events[index-st.first+1:]...)
	}
	s.mu.Unlock()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// SessionClosed drops every stream of the session.
func (s *MemoryEventStore) SessionClosed(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.sessions[sessionID] {
		st.dead = true
		for _, e := range st.events {
			s.size -= len(e)
		}
		s.count -= len(st.events)
		st.events = nil
	}
	delete(s.sessions, sessionID)
	s.compact()
	return nil
}

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
