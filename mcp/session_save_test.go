package mcp

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// countingSessionStore is a MemorySessionStore that counts saves.
type countingSessionStore struct {
	*MemorySessionStore
	saves atomic.Int64
}

func (s *countingSessionStore) Save(ctx context.Context, id string, st *SessionState, ttl time.Duration) error {
	s.saves.Add(1)
	return s.MemorySessionStore.Save(ctx, id, st, ttl)
}

// Only requests that change a shared session's state save it: a
// tools/call on another instance saves nothing and, answered at once,
// stores no event either; logging/setLevel saves.
func TestSharedSessionSavedOnlyWhenChanged(t *testing.T) {
	store := &countingSessionStore{MemorySessionStore: NewMemorySessionStore()}
	events := &countingEventStore{MemoryEventStore: NewMemoryEventStore(nil)}
	opts := &StreamableHTTPOptions{SessionStore: store, SessionRouter: NewMemorySessionRouter(), EventStore: events}
	_, _, tsA, _ := newHTTPTest(t, opts, nil)
	_, _, tsB, _ := newHTTPTest(t, opts, nil)
	a := &rawClient{t: t, url: tsA.URL}
	a.initialize(Version20251125)
	if n := store.saves.Load(); n != 1 {
		t.Fatalf("initialize saved %d times, want 1", n)
	}
	b := &rawClient{t: t, url: tsB.URL, sid: a.sid, version: a.version}
	for i := range 5 {
		msgs := readMessages(t, b.post(`{"jsonrpc":"2.0","id":`+strconv.Itoa(2+i)+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, nil))
		if len(msgs) != 1 || resultText(msgs[0]) != "x" {
			t.Fatalf("tools/call on B: %v", msgs)
		}
	}
	if n := store.saves.Load(); n != 1 {
		t.Errorf("5 tools/call saved the session %d times, want none", n-1)
	}
	if n := events.appends.Load(); n != 0 {
		t.Errorf("5 tools/call stored %d events, want none", n)
	}
	resp := b.post(`{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"error"}}`, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("setLevel on B: %s", resp.Status)
	}
	if n := store.saves.Load(); n != 2 {
		t.Errorf("after setLevel: %d saves, want 2", n)
	}
}
