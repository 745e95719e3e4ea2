package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// lossyRouter is a SessionRouter that loses every announcement of a
// change (RouteState) or an end (RouteClose) before any subscription
// gets it.
type lossyRouter struct{ *MemorySessionRouter }

func (r lossyRouter) Publish(ctx context.Context, id string, m *SessionMessage) error {
	_, err := r.PublishCount(ctx, id, m)
	return err
}

func (r lossyRouter) PublishCount(ctx context.Context, id string, m *SessionMessage) (int, error) {
	if m.Kind == RouteState || m.Kind == RouteClose {
		return 0, nil
	}
	return r.MemorySessionRouter.PublishCount(ctx, id, m)
}

// heldRouter is a SessionRouter whose subscriptions call hold with each
// message before they handle it.
type heldRouter struct {
	*MemorySessionRouter
	hold func(m *SessionMessage)
}

func (r *heldRouter) Subscribe(ctx context.Context, id string, fn func(*SessionMessage)) (func(), error) {
	return r.MemorySessionRouter.Subscribe(ctx, id, func(m *SessionMessage) {
		r.hold(m)
		fn(m)
	})
}

// serveRecorded serves one request of a legacy session with h, without a
// network.
func serveRecorded(h http.Handler, method, sid, body string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, "http://127.0.0.1/mcp", rd)
	req.Host = "127.0.0.1"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set(headerSessionID, sid)
		req.Header.Set(headerProtocolVersion, Version20251125)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// TestAnnouncementAnsweredAfterEveryInstance: a DELETE of a shared
// session, or a change of its state, on instance A is answered only once
// instance B, which serves the session from its own copy, has dropped the
// session or marked its copy stale. B's delivery of the announcement is
// held; once every goroutine is blocked (synctest.Wait), A must not have
// answered; released, B acts, and A answers.
func TestAnnouncementAnsweredAfterEveryInstance(t *testing.T) {
	for _, tt := range []struct {
		name   string
		kind   string
		method string
		body   string
		want   int
		// after checks B once A has answered.
		after func(t *testing.T, hB *StreamableHTTPHandler, sid string)
	}{
		{"Delete", RouteClose, http.MethodDelete, "", http.StatusNoContent, checkDeletedOnB},
		{"SetLevel", RouteState, http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}}`, http.StatusOK, checkLevelOnB},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := newHeldPair(t, tt.kind)
				answered := make(chan int, 1)
				go func() { answered <- serveRecorded(p.hA, tt.method, p.sid, tt.body).Code }()
				synctest.Wait() // A waits, B holds the announcement
				// Half the bound of A's wait passes (on the bubble's clock,
				// at once): an A that answers after a fixed delay
				// instead of waiting for B has answered by then.
				time.Sleep(settleWait / 2)
				synctest.Wait()
				select {
				case code := <-answered:
					t.Fatalf("%s on A answered (%d) while B had not handled its announcement", tt.name, code)
				default:
				}
				p.releaseB()
				if code := <-answered; code != tt.want {
					t.Fatalf("%s on A: %d, want %d", tt.name, code, tt.want)
				}
				tt.after(t, p.hB, p.sid)
			})
		})
	}
}

// A heldPair is two handlers of one server sharing a session store and a
// router, B's delivery of announcements of one kind held until releaseB,
// and a legacy session initialized on A that B serves from its copy.
type heldPair struct {
	hA, hB   *StreamableHTTPHandler
	sid      string
	release  chan struct{}
	released bool
}

// newHeldPair starts a heldPair holding announcements of kind; the test's
// end releases them (first, so that nothing stays held when it fails) and
// closes both handlers.
func newHeldPair(t *testing.T, kind string) *heldPair {
	t.Helper()
	shared := NewMemorySessionRouter()
	p := &heldPair{release: make(chan struct{})}
	routerB := &heldRouter{MemorySessionRouter: shared, hold: func(m *SessionMessage) {
		if m.Kind == kind {
			<-p.release
		}
	}}
	store := NewMemorySessionStore()
	srv := NewServer("test", "v1", nil)
	getServer := func(*http.Request) *Server { return srv }
	p.hA = NewStreamableHTTPHandler(getServer, &StreamableHTTPOptions{SessionStore: store, SessionRouter: shared})
	p.hB = NewStreamableHTTPHandler(getServer, &StreamableHTTPOptions{SessionStore: store, SessionRouter: routerB})
	t.Cleanup(func() { p.hB.Close() })
	t.Cleanup(func() { p.hA.Close() })
	t.Cleanup(p.releaseB)
	w := serveRecorded(p.hA, http.MethodPost, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	p.sid = w.Header().Get(headerSessionID)
	if w.Code != http.StatusOK || p.sid == "" {
		t.Fatalf("initialize on A: %d %s", w.Code, w.Body)
	}
	if w := serveRecorded(p.hA, http.MethodPost, p.sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); w.Code != http.StatusAccepted {
		t.Fatalf("initialized on A: %d", w.Code)
	}
	if w := serveRecorded(p.hB, http.MethodPost, p.sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); w.Code != http.StatusOK {
		t.Fatalf("ping on B: %d", w.Code)
	}
	if !p.hB.session(p.sid).cached() {
		t.Fatal("B does not serve the session from its copy")
	}
	return p
}

// releaseB lets B handle the held announcements; it may be called again.
func (p *heldPair) releaseB() {
	if !p.released {
		p.released = true
		close(p.release)
	}
}

// checkDeletedOnB: B no longer serves the session deleted on A.
func checkDeletedOnB(t *testing.T, hB *StreamableHTTPHandler, sid string) {
	if w := serveRecorded(hB, http.MethodPost, sid, `{"jsonrpc":"2.0","id":5,"method":"ping"}`); w.Code != http.StatusNotFound {
		t.Errorf("ping on B right after the DELETE on A answered: %d, want 404", w.Code)
	}
}

// checkLevelOnB: B no longer trusts its copy of the session, and serves
// it with the level set on A.
func checkLevelOnB(t *testing.T, hB *StreamableHTTPHandler, sid string) {
	if sess := hB.session(sid); sess == nil || sess.cached() {
		t.Fatal("B still trusts its copy of the session right after setLevel on A answered")
	}
	if w := serveRecorded(hB, http.MethodPost, sid, `{"jsonrpc":"2.0","id":5,"method":"ping"}`); w.Code != http.StatusOK {
		t.Fatalf("ping on B: %d", w.Code)
	}
	sess := hB.session(sid)
	sess.ss.logging.mu.Lock()
	defer sess.ss.logging.mu.Unlock()
	if got := sess.ss.logging.level; got != LoggingLevelError {
		t.Errorf("B serves the session with level %q, want error", got)
	}
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
