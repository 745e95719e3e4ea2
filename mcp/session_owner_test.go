package mcp

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// ownerHeader is the header ownerFromHeader trusts, as an authorization
// middleware trusts a verified token.
const ownerHeader = "X-Test-Owner"

// ownerFromHeader is middleware that sets the session owner from
// ownerHeader, when the request has it.
func ownerFromHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if owner := r.Header.Get(ownerHeader); owner != "" {
			r = r.WithContext(WithSessionOwner(r.Context(), owner))
		}
		next.ServeHTTP(w, r)
	})
}

// A legacy session belongs to the owner of its initialize request: any
// request of it with another owner, or none, is answered as if the
// session did not exist, on the instance that created it and on another
// sharing its SessionStore.
func TestSessionOwner(t *testing.T) {
	store, router := NewMemorySessionStore(), NewMemorySessionRouter()
	opts := &StreamableHTTPOptions{SessionStore: store, SessionRouter: router}
	_, _, tsA, _ := newHTTPTestWrapped(t, opts, nil, ownerFromHeader)
	_, _, tsB, _ := newHTTPTestWrapped(t, opts, nil, ownerFromHeader)
	_, _, tsAlone, _ := newHTTPTestWrapped(t, nil, nil, ownerFromHeader)
	start := func(url, owner string) *rawClient {
		c := &rawClient{t: t, url: url}
		resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, map[string]string{ownerHeader: owner})
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("initialize as %q: %s", owner, resp.Status)
		}
		c.sid, c.version = resp.Header.Get(headerSessionID), Version20251125
		return c
	}
	ping := func(c *rawClient, url, owner string) int {
		cc := *c
		cc.url = url
		resp := cc.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{ownerHeader: owner})
		resp.Body.Close()
		return resp.StatusCode
	}
	alice := start(tsA.URL, "alice")
	anonymous := start(tsAlone.URL, "")
	aliceAlone := start(tsAlone.URL, "alice")
	for _, tt := range []struct {
		name   string
		c      *rawClient
		url    string
		owner  string
		status int
	}{
		{"owner, same instance", alice, tsA.URL, "alice", http.StatusOK},
		{"other owner, same instance", alice, tsA.URL, "bob", http.StatusNotFound},
		{"no owner, same instance", alice, tsA.URL, "", http.StatusNotFound},
		{"other owner, other instance first", alice, tsB.URL, "bob", http.StatusNotFound},
		{"owner, other instance", alice, tsB.URL, "alice", http.StatusOK},
		{"other owner, other instance holding a copy", alice, tsB.URL, "mallory", http.StatusNotFound},
		{"owner, other instance again", alice, tsB.URL, "alice", http.StatusOK},
		{"session without owner, with none", anonymous, tsAlone.URL, "", http.StatusOK},
		{"session without owner, with one", anonymous, tsAlone.URL, "alice", http.StatusNotFound},
		{"no store: owner", aliceAlone, tsAlone.URL, "alice", http.StatusOK},
		{"no store: other owner", aliceAlone, tsAlone.URL, "bob", http.StatusNotFound},
	} {
		if got := ping(tt.c, tt.url, tt.owner); got != tt.status {
			t.Errorf("%s: ping as %q answered %d, want %d", tt.name, tt.owner, got, tt.status)
		}
	}
	st, err := store.Load(context.Background(), alice.sid, 0)
	if err != nil || st.Owner != "alice" {
		t.Fatalf("stored state %+v, %v: want owner alice", st, err)
	}
	// Neither a GET stream nor a DELETE of another owner is served, and
	// the refused DELETE leaves the session to its owner.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		resp := alice.do(method, "", map[string]string{ownerHeader: "bob", "Accept": "text/event-stream"})
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s as bob: %s, want 404", method, resp.Status)
		}
	}
	if got := ping(alice, tsA.URL, "alice"); got != http.StatusOK {
		t.Fatalf("ping as alice after bob's DELETE: %d", got)
	}
}

// An HTTP+SSE session (2024-11-05) belongs to the owner of its GET.
func TestSSESessionOwner(t *testing.T) {
	server := NewServer("sse-test", "v1", nil)
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewServer(ownerFromHeader(h))
	defer ts.Close()
	defer h.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(ownerHeader, "alice")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	endpoint := ""
	for sc := bufio.NewScanner(resp.Body); endpoint == "" && sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = v
		}
	}
	if endpoint == "" {
		t.Fatal("no endpoint event")
	}
	for _, tt := range []struct {
		owner  string
		status int
	}{{"bob", http.StatusNotFound}, {"", http.StatusNotFound}, {"alice", http.StatusAccepted}} {
		post, err := http.NewRequest(http.MethodPost, ts.URL+endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
		if err != nil {
			t.Fatalf("endpoint %q: %v", endpoint, err)
		}
		post.Header.Set("Content-Type", "application/json")
		if tt.owner != "" {
			post.Header.Set(ownerHeader, tt.owner)
		}
		r, err := http.DefaultClient.Do(post)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != tt.status {
			t.Errorf("POST as %q: %s, want %d", tt.owner, r.Status, tt.status)
		}
	}
}

// WithSessionOwner's context keeps its parent's values, deadline and
// cancellation, and a nearer owner wins.
func TestWithSessionOwnerContext(t *testing.T) {
	type otherKey struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), otherKey{}, "v"))
	ctx := WithSessionOwner(parent, "alice")
	inner := WithSessionOwner(context.WithValue(ctx, otherKey{}, "w"), "bob")
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"owner", SessionOwnerFromContext(ctx) == "alice"},
		{"nearest owner", SessionOwnerFromContext(inner) == "bob"},
		{"none", SessionOwnerFromContext(parent) == ""},
		{"parent's values", ctx.Value(otherKey{}) == "v"},
		{"not alive after cancel", func() bool { cancel(); <-ctx.Done(); return ctx.Err() == context.Canceled }()},
		{"owner not printed", !strings.Contains(fmt.Sprint(ctx), "alice")},
	} {
		if !tt.ok {
			t.Error(tt.name)
		}
	}
}
