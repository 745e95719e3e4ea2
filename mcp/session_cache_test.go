package mcp

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// lossyRouter is a SessionRouter that loses every announcement of a
// change (RouteState) or an end (RouteClose).
type lossyRouter struct{ *MemorySessionRouter }

func (r lossyRouter) Publish(ctx context.Context, id string, m *SessionMessage) error {
	if m.Kind == RouteState || m.Kind == RouteClose {
		return nil
	}
	return r.MemorySessionRouter.Publish(ctx, id, m)
}

// TestSharedSessionCopy: an instance serves a shared session from its own
// copy; a change made on another instance is seen as soon as its
// announcement arrives, and within sessionRecheck when the announcement
// was lost; so is a DELETE.
func TestSharedSessionCopy(t *testing.T) {
	for _, tt := range []struct {
		name   string
		router SessionRouter
		within time.Duration
	}{
		// Announced: normally before the next request; the in-memory
		// router delivers on goroutines of its own, which a loaded
		// machine may run late.
		{"Announced", NewMemorySessionRouter(), 300 * time.Millisecond},
		{"AnnouncementLost", lossyRouter{NewMemorySessionRouter()}, sessionRecheck + 500*time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := &StreamableHTTPOptions{SessionStore: NewMemorySessionStore(), SessionRouter: tt.router, EventStore: NewMemoryEventStore(nil)}
			_, _, tsA, _ := newHTTPTest(t, opts, nil)
			_, hB, tsB, _ := newHTTPTest(t, opts, nil)
			a := &rawClient{t: t, url: tsA.URL}
			a.initialize(Version20251125)
			b := &rawClient{t: t, url: tsB.URL, sid: a.sid, version: a.version}
			ping := func(c *rawClient) int {
				resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil)
				resp.Body.Close()
				return resp.StatusCode
			}
			if s := ping(b); s != http.StatusOK {
				t.Fatalf("ping on B: %d", s)
			}
			level := func() LoggingLevel {
				sess := hB.session(a.sid)
				if sess == nil {
					return "(none)"
				}
				sess.ss.logging.mu.Lock()
				defer sess.ss.logging.mu.Unlock()
				return sess.ss.logging.level
			}
			if resp := a.post(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}}`, nil); resp.StatusCode != http.StatusOK {
				t.Fatalf("setLevel on A: %s", resp.Status)
			} else {
				resp.Body.Close()
			}
			start := time.Now()
			for ping(b); level() != "error"; ping(b) {
				if time.Since(start) > tt.within {
					t.Fatalf("B still serves the session with level %q %v after A set it to error", level(), time.Since(start))
				}
				time.Sleep(50 * time.Millisecond)
			}
			resp := a.do(http.MethodDelete, "", nil)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE on A: %s", resp.Status)
			}
			start = time.Now()
			for ping(b) != http.StatusNotFound {
				if time.Since(start) > tt.within {
					t.Fatalf("B still serves the session %v after A deleted it", time.Since(start))
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
