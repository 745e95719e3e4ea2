package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// recordAuthorize returns an AuthorizeFunc that records the messages it
// is asked about, and the function that returns them.
func recordAuthorize() (AuthorizeFunc, func() []AuthorizeMessage) {
	var mu sync.Mutex
	var seen []AuthorizeMessage
	f := func(ctx context.Context, req *AuthorizeRequest) error {
		if req.HTTPRequest == nil || req.HTTPRequest.Method != http.MethodPost {
			return errors.New("no POST in the AuthorizeRequest")
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, req.Messages...)
		return nil
	}
	return f, func() []AuthorizeMessage {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// TestAuthorizeSeesDecodedMessages: the handler's Authorize gets the
// method and the name each message acts on, in both eras, for single
// messages and batches.
func TestAuthorizeSeesDecodedMessages(t *testing.T) {
	call := func(id int, tool string) string {
		return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"text":"hi"}}}`
	}
	tests := []struct {
		name    string
		legacy  string // protocol of a legacy session, or "" for 2026-07-28
		body    string
		headers map[string]string
		want    []AuthorizeMessage
	}{
		{name: "2026-07-28 tools/call", body: modernCall(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`),
			headers: modernHeaders("tools/call", "echo"), want: []AuthorizeMessage{{Method: "tools/call", Name: "echo"}}},
		{name: "2026-07-28 tools/list", body: modernCall(1, "tools/list", ""),
			headers: modernHeaders("tools/list", ""), want: []AuthorizeMessage{{Method: "tools/list"}}},
		{name: "2026-07-28 resources/read names the URI", body: modernCall(1, "resources/read", `"uri":"file:///a%20b"`),
			headers: modernHeaders("resources/read", "file:///a%20b"), want: []AuthorizeMessage{{Method: "resources/read", Name: "file:///a%20b"}}},
		{name: "2025-11-25 tools/call, escaped name", legacy: Version20251125,
			body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ec\u0068o","arguments":{"text":"hi"}}}`,
			want: []AuthorizeMessage{{Method: "tools/call", Name: "echo"}}},
		{name: "2025-11-25 prompts/get", legacy: Version20251125,
			body: `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"p"}}`,
			want: []AuthorizeMessage{{Method: "prompts/get", Name: "p"}}},
		{name: "2025-11-25 notification", legacy: Version20251125,
			body: `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
			want: []AuthorizeMessage{{Method: "notifications/roots/list_changed"}}},
		{name: "2025-11-25 params that do not decode", legacy: Version20251125,
			body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}}`,
			want: []AuthorizeMessage{{Method: "tools/call"}}},
		{name: "2025-03-26 batch", legacy: Version20250326,
			body: "[" + call(2, "echo") + "," + `{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "," + call(4, "whoami") + "]",
			want: []AuthorizeMessage{{Method: "tools/call", Name: "echo"}, {Method: "tools/list"}, {Method: "tools/call", Name: "whoami"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, seen := recordAuthorize()
			_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{Authorize: f}, nil)
			c := &rawClient{t: t, url: ts.URL}
			if tc.legacy != "" {
				c.initialize(tc.legacy)
			}
			before := len(seen())
			resp := c.post(tc.body, tc.headers)
			msgs := readMessages(t, resp)
			if resp.StatusCode == http.StatusForbidden {
				t.Fatalf("status %s: %v", resp.Status, msgs)
			}
			if got := seen()[before:]; !slices.Equal(got, tc.want) {
				t.Errorf("Authorize saw %+v, want %+v", got, tc.want)
			}
		})
	}
}

// forbidden is an error that answers the refused POST itself.
type forbidden struct{}

func (forbidden) Error() string { return "refused" }

func (forbidden) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="x"`)
	w.WriteHeader(http.StatusForbidden)
	io.WriteString(w, "no x")
}

// TestAuthorizeRefuses: a refusal answers the POST before anything in it
// runs, with the error's own response when it is an http.Handler, else a
// 403 with a JSON-RPC error; both for the handler's option and for the
// authorizers middleware adds with WithAuthorize.
func TestAuthorizeRefuses(t *testing.T) {
	refuseEcho := func(err error) AuthorizeFunc {
		return func(ctx context.Context, req *AuthorizeRequest) error {
			for _, m := range req.Messages {
				if m.Name == "counted" {
					return err
				}
			}
			return nil
		}
	}
	tests := []struct {
		name       string
		legacy     bool
		err        error
		middleware bool
		wantHeader string
		wantBody   string
	}{
		{name: "option, own response, 2026-07-28", err: forbidden{}, wantHeader: `Bearer error="insufficient_scope", scope="x"`, wantBody: "no x"},
		{name: "option, own response, legacy", legacy: true, err: forbidden{}, wantHeader: `Bearer error="insufficient_scope", scope="x"`, wantBody: "no x"},
		{name: "option, wrapped own response", err: errors.Join(errors.New("context"), forbidden{}), wantBody: "no x"},
		{name: "option, plain error", err: errors.New("not for you"), wantBody: `"code":-32600,"message":"not for you"`},
		{name: "middleware, own response, 2026-07-28", middleware: true, err: forbidden{}, wantBody: "no x"},
		{name: "middleware, plain error, legacy", middleware: true, legacy: true, err: errors.New("not for you"), wantBody: `"message":"not for you"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runs atomic.Int64
			opts := &StreamableHTTPOptions{}
			var wrap func(http.Handler) http.Handler
			if tc.middleware {
				wrap = func(next http.Handler) http.Handler {
					return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						next.ServeHTTP(w, r.WithContext(WithAuthorize(r.Context(), refuseEcho(tc.err))))
					})
				}
			} else {
				opts.Authorize = refuseEcho(tc.err)
			}
			s, _, ts, _ := newHTTPTestWrapped(t, opts, nil, wrap)
			s.AddTools(&ServerTool{Tool: &Tool{Name: "counted", InputSchema: map[string]any{"type": "object"}},
				Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
					runs.Add(1)
					return &CallToolResult{}, nil
				}})
			c := &rawClient{t: t, url: ts.URL}
			body, hdr := modernCall(1, "tools/call", `"name":"counted","arguments":{}`), modernHeaders("tools/call", "counted")
			if tc.legacy {
				c.initialize(Version20251125)
				body, hdr = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"counted","arguments":{}}}`, nil
			}
			resp := c.post(body, hdr)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), tc.wantBody) {
				t.Errorf("got %s %q, want 403 with %q", resp.Status, b, tc.wantBody)
			}
			if tc.wantHeader != "" && resp.Header.Get("WWW-Authenticate") != tc.wantHeader {
				t.Errorf("WWW-Authenticate %q, want %q", resp.Header.Get("WWW-Authenticate"), tc.wantHeader)
			}
			if n := runs.Load(); n != 0 {
				t.Errorf("the refused tool ran %d times", n)
			}
			// Another tool passes.
			body = strings.ReplaceAll(body, "counted", "echo")
			if hdr != nil {
				hdr = modernHeaders("tools/call", "echo")
			}
			resp = c.post(body, hdr)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("echo: %s", resp.Status)
			}
		})
	}
}

// TestAuthorizeOrder: the option runs first, then the middleware's
// authorizers from the outermost inwards; the first refusal wins.
func TestAuthorizeOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	mark := func(name string) AuthorizeFunc {
		return func(context.Context, *AuthorizeRequest) error {
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			return nil
		}
	}
	add := func(name string) func(http.Handler) http.Handler {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r.WithContext(WithAuthorize(r.Context(), mark(name))))
			})
		}
	}
	wrap := func(h http.Handler) http.Handler { return add("outer")(add("inner")(h)) }
	_, _, ts, _ := newHTTPTestWrapped(t, &StreamableHTTPOptions{Authorize: mark("option")}, nil, wrap)
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(modernCall(1, "tools/list", ""), modernHeaders("tools/list", ""))
	resp.Body.Close()
	if want := []string{"option", "outer", "inner"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

// TestAuthorizeSSE: the HTTP+SSE handler runs the authorizers on the POSTs
// of a session too.
func TestAuthorizeSSE(t *testing.T) {
	server := NewServer("sse", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	f, seen := recordAuthorize()
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, &SSEOptions{Authorize: f})
	refuse := func(ctx context.Context, req *AuthorizeRequest) error {
		if req.Messages[0].Name == "whoami" {
			return forbidden{}
		}
		return nil
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithAuthorize(r.Context(), refuse)))
	}))
	t.Cleanup(func() { h.Close(); ts.Close() })
	tr, err := NewSSEClientTransport(ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", nil).Connect(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil); err != nil {
		t.Fatalf("echo: %v", err)
	}
	if !slices.Contains(seen(), AuthorizeMessage{Method: "tools/call", Name: "echo"}) {
		t.Errorf("Authorize saw %+v", seen())
	}
	if _, err := cs.CallTool(context.Background(), "whoami", nil, nil); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("whoami: %v, want a 403", err)
	}
}

// TestAuthorizeDecodesOnce: with an authorizer, a tools/call costs at
// most one allocation more (the AuthorizeRequest): its params are
// decoded once, by the authorizer's step, and the dispatch step takes
// them.
func TestAuthorizeDecodesOnce(t *testing.T) {
	allow := func(context.Context, *AuthorizeRequest) error { return nil }
	allocs := func(opts *StreamableHTTPOptions) float64 {
		s := NewServer("a", "v1", nil)
		s.AddTools(httpTestTools(nil)...)
		h := NewStreamableHTTPHandler(func(*http.Request) *Server { return s }, opts)
		defer h.Close()
		body := modernCall(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)
		serve := func() {
			r := httptest.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(body))
			r.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
				"Mcp-Protocol-Version": {Version20260728}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"echo"}}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
		serve()
		return leastAllocs(50, serve)
	}
	without, with := allocs(nil), allocs(&StreamableHTTPOptions{Authorize: allow})
	// One allocation more: the AuthorizeRequest. Under the race detector
	// the pools' random drops add up to one more to either side; decoding
	// the body a second time would add several.
	budget := without + 1
	if raceEnabled {
		budget++
	}
	if with > budget {
		t.Errorf("%.0f allocations per call with Authorize, %.0f without: more than the AuthorizeRequest", with, without)
	}
}
