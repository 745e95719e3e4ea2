package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// refusingServer answers every request with status and a Bearer
// challenge, and counts the JSON-RPC methods it was sent.
func refusingServer(t *testing.T, status int) (*httptest.Server, func() []string) {
	var (
		mu      sync.Mutex
		methods []string
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			Method string `json:"method"`
		}
		if r.Method == http.MethodPost {
			if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
				t.Errorf("bad request body: %v", err)
			}
		}
		mu.Lock()
		methods = append(methods, strings.TrimSpace(r.Method+" "+msg.Method))
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"`)
		http.Error(w, `{"error":"invalid_token"}`, status)
	}))
	t.Cleanup(ts.Close)
	return ts, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), methods...)
	}
}

// A 401 or 403 is an *HTTPStatusError with the status and the challenge,
// over every client transport and in every era; the version probe does
// not fall back to initialize on it.
func TestClientReportsRefusedCredentials(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		for _, tt := range []struct {
			name      string
			version   string // pinned, or "" to probe
			sse       bool
			wantSends int // requests the server saw
		}{
			{name: "streamable, probing", wantSends: 1},
			{name: "streamable, 2026-07-28", version: Version20260728, wantSends: 1},
			{name: "streamable, 2025-11-25", version: Version20251125, wantSends: 1},
			{name: "sse", version: Version20241105, sse: true, wantSends: 1},
		} {
			t.Run(http.StatusText(status)+"/"+tt.name, func(t *testing.T) {
				ts, sent := refusingServer(t, status)
				var transport Transport = NewStreamableClientTransport(ts.URL, nil)
				if tt.sse {
					st, err := NewSSEClientTransport(ts.URL, nil)
					if err != nil {
						t.Fatal(err)
					}
					transport = st
				}
				_, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: tt.version}).Connect(context.Background(), transport)
				var herr *HTTPStatusError
				if !errors.As(err, &herr) {
					t.Fatalf("Connect = %v (%T), want an *HTTPStatusError", err, err)
				}
				if herr.StatusCode != status || len(herr.WWWAuthenticate) != 1 || !strings.Contains(herr.WWWAuthenticate[0], "resource_metadata=") {
					t.Errorf("error %+v, want status %d and the Bearer challenge", herr, status)
				}
				if !strings.Contains(err.Error(), herr.Status) {
					t.Errorf("message %q does not give the status", err)
				}
				if got := sent(); len(got) != tt.wantSends {
					t.Errorf("the server saw %q, want %d request(s): no fallback after a refusal", got, tt.wantSends)
				}
			})
		}
	}
}

// Any other HTTP refusal of a 2026-07-28 probe still falls back to
// initialize, whose own refusal is the error, of the same type.
func TestProbeFallsBackOnOtherStatuses(t *testing.T) {
	ts, sent := refusingServer(t, http.StatusBadRequest)
	_, err := NewClient("c", "v1", nil).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	var herr *HTTPStatusError
	if !errors.As(err, &herr) || herr.StatusCode != http.StatusBadRequest {
		t.Fatalf("Connect = %v, want an *HTTPStatusError with 400", err)
	}
	if got := sent(); len(got) != 2 || got[0] != "POST server/discover" || got[1] != "POST initialize" {
		t.Errorf("the server saw %q, want the probe and initialize", got)
	}
}

// A call refused with 403 after the session was made (the token lost a
// scope) fails with an *HTTPStatusError in both eras, and the session
// stays usable for calls the server accepts.
func TestCallRefusedAfterConnect(t *testing.T) {
	for _, version := range []string{Version20260728, Version20251125} {
		t.Run(version, func(t *testing.T) {
			var refuse sync.Map // tool names refused with 403
			_, _, ts, _ := newHTTPTestWrapped(t, nil, nil, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					var msg struct {
						Params struct {
							Name string `json:"name"`
						} `json:"params"`
					}
					_ = json.Unmarshal(body, &msg) // GET and DELETE have no body
					if _, ok := refuse.Load(msg.Params.Name); ok {
						w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
						http.Error(w, "forbidden", http.StatusForbidden)
						return
					}
					r.Body = io.NopCloser(bytes.NewReader(body))
					next.ServeHTTP(w, r)
				})
			})
			cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version}).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			refuse.Store("echo", true)
			_, err = cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil)
			var herr *HTTPStatusError
			if !errors.As(err, &herr) || herr.StatusCode != http.StatusForbidden || len(herr.WWWAuthenticate) != 1 || !strings.Contains(herr.WWWAuthenticate[0], "insufficient_scope") {
				t.Fatalf("refused call: %v, want an *HTTPStatusError 403 with the challenge", err)
			}
			refuse.Delete("echo")
			if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil); err != nil {
				t.Errorf("the call after the refusal: %v", err)
			}
		})
	}
}
