package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingHandler counts the requests an HTTP handler receives, by method.
type countingHandler struct {
	next http.Handler
	mu   sync.Mutex
	seen []string // "POST tools/call", "GET", "DELETE"
}

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	what := r.Method
	if m := r.Header.Get(headerMethod); m != "" {
		what += " " + m
	}
	c.mu.Lock()
	c.seen = append(c.seen, what)
	c.mu.Unlock()
	c.next.ServeHTTP(w, r)
}

func (c *countingHandler) requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.seen...)
}

// httpSessionPair connects a client over streamable HTTP to the test
// server, pinned to version ("" for the default probe).
func httpSessionPair(t *testing.T, opts *StreamableHTTPOptions, sopts *ServerOptions, copts *ClientOptions) (*ClientSession, *Server, *countingHandler, chan struct{}) {
	t.Helper()
	counter := &countingHandler{}
	server, _, ts, release := newHTTPTestWrapped(t, opts, sopts, func(h http.Handler) http.Handler { counter.next = h; return counter })
	cs, err := NewClient("http-client", "v1", copts).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, server, counter, release
}

func TestStreamableClientBothEras(t *testing.T) {
	for _, version := range []string{"", Version20251125, Version20250618, Version20250326} {
		name := version
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			cs, _, _, _ := httpSessionPair(t, nil, nil, &ClientOptions{ProtocolVersion: version})
			want := version
			if want == "" {
				want = Version20260728
			}
			if cs.ProtocolVersion() != want {
				t.Fatalf("version %s, want %s", cs.ProtocolVersion(), want)
			}
			res, err := cs.CallTool(context.Background(), "echo", map[string]string{"text": "hello"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; got != "hello" {
				t.Fatalf("echo: %q", got)
			}
			var progress []float64
			var mu sync.Mutex
			res, err = cs.CallTool(context.Background(), "progress", nil, &CallToolOptions{
				ProgressHandler: func(_ context.Context, p *ProgressNotificationParams) {
					mu.Lock()
					progress = append(progress, p.Progress)
					mu.Unlock()
				},
			})
			if err != nil || res.Content[0].Text != "done" {
				t.Fatalf("progress tool: %v %v", res, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(progress) != 3 {
				t.Errorf("progress notifications: %v", progress)
			}
		})
	}
}

func TestStreamableClientStartsInOneRoundTrip(t *testing.T) {
	cs, _, counter, _ := httpSessionPair(t, nil, nil, nil)
	if got := counter.requests(); len(got) != 1 || got[0] != "POST "+MethodDiscover {
		t.Fatalf("requests to connect: %v, want one server/discover", got)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got := counter.requests(); len(got) != 2 || got[1] != "POST "+MethodListTools {
		t.Fatalf("requests: %v", got)
	}
}

func TestStreamableClientFallsBackToLegacy(t *testing.T) {
	cs, _, counter, _ := httpSessionPair(t, nil, &ServerOptions{ProtocolVersions: []string{Version20251125, Version20250618}}, nil)
	if cs.ProtocolVersion() != Version20251125 {
		t.Fatalf("version %s, want the fallback to 2025-11-25", cs.ProtocolVersion())
	}
	res, err := cs.CallTool(context.Background(), "echo", map[string]string{"text": "legacy"}, nil)
	if err != nil || res.Content[0].Text != "legacy" {
		t.Fatalf("call after fallback: %v %v", res, err)
	}
	got := counter.requests()
	if len(got) < 3 || got[0] != "POST "+MethodDiscover || got[1] != "POST" {
		t.Fatalf("requests: %v, want discover, then initialize", got)
	}
}

func TestStreamableClientLegacySession(t *testing.T) {
	// A logging handler makes the session open its GET stream at connect.
	cs, server, counter, _ := httpSessionPair(t, nil, nil, &ClientOptions{
		ProtocolVersion:       Version20251125,
		LoggingMessageHandler: func(context.Context, *ClientSession, *LoggingMessageParams) {},
	})
	// The server reaches the client on its own: a ping on the GET stream.
	var ss *ServerSession
	waitUntil(t, func() bool {
		sessions := slicesOf(server.Sessions())
		if len(sessions) == 1 {
			ss = sessions[0]
		}
		return ss != nil
	})
	waitUntil(t, func() bool { return standaloneAttached(ss.conn.(*httpSession)) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ss.Ping(ctx, nil); err != nil {
		t.Fatalf("server ping over the GET stream: %v", err)
	}
	// And within a request: the "ping" tool pings back on the POST stream.
	res, err := cs.CallTool(ctx, "ping", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("ping tool: %v %v", res, err)
	}
	cs.Close()
	waitUntil(t, func() bool { return len(slicesOf(server.Sessions())) == 0 })
	found := false
	for _, r := range counter.requests() {
		found = found || r == http.MethodDelete
	}
	if !found {
		t.Errorf("Close did not delete the session: %v", counter.requests())
	}
}

func TestStreamableClientListChangedOnGETStream(t *testing.T) {
	changed := make(chan struct{}, 1)
	copts := &ClientOptions{
		ProtocolVersion: Version20251125,
		ToolListChangedHandler: func(context.Context, *ClientSession, *ToolListChangedParams) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	}
	_, server, _, _ := httpSessionPair(t, nil, nil, copts)
	var ss *ServerSession
	waitUntil(t, func() bool {
		s := slicesOf(server.Sessions())
		if len(s) == 1 {
			ss = s[0]
		}
		return ss != nil && standaloneAttached(ss.conn.(*httpSession))
	})
	server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: map[string]any{"type": "object"}}, Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
		return &CallToolResult{}, nil
	}})
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed notification")
	}
}

func TestStreamableClientSessionExpired(t *testing.T) {
	cs, server, _, _ := httpSessionPair(t, nil, nil, &ClientOptions{ProtocolVersion: Version20251125})
	for ss := range server.Sessions() {
		ss.Close()
	}
	// The call fails with ErrSessionExpired if its own POST finds the
	// session gone, or with ErrConnectionClosed if the GET stream found out
	// first and ended the connection; either way Wait tells why.
	_, err := cs.CallTool(context.Background(), "echo", nil, nil)
	if !errors.Is(err, ErrSessionExpired) && !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("call on an expired session: %v, want ErrSessionExpired", err)
	}
	if err := cs.Wait(); !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Wait: %v, want ErrSessionExpired", err)
	}
}

func TestStreamableClientResumesStream(t *testing.T) {
	cs, _, counter, _ := httpSessionPair(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}, nil,
		&ClientOptions{ProtocolVersion: Version20251125})
	var progress atomic.Int32
	res, err := cs.CallTool(context.Background(), "poll", nil, &CallToolOptions{
		ProgressHandler: func(context.Context, *ProgressNotificationParams) { progress.Add(1) },
	})
	if err != nil || res.Content[0].Text != "resumed" {
		t.Fatalf("poll: %v %v", res, err)
	}
	if progress.Load() != 1 {
		t.Errorf("progress during the closed stream: %d, want 1", progress.Load())
	}
	gets := 0
	for _, r := range counter.requests() {
		if r == http.MethodGet {
			gets++
		}
	}
	if gets < 1 { // the resumption (the client needs no standalone stream)
		t.Errorf("requests %v: want a GET resuming the stream", counter.requests())
	}
}

func TestStreamableClientModernCancellation(t *testing.T) {
	cs, _, _, _ := httpSessionPair(t, nil, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cs.CallTool(ctx, "wait", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The session is still usable.
	if _, err := cs.CallTool(context.Background(), "echo", nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestStreamableClientMirrorsToolArguments(t *testing.T) {
	var sawHeader atomic.Value
	server, _, ts, _ := newHTTPTestWrapped(t, nil, nil, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if v := r.Header.Get("Mcp-Param-Region"); v != "" {
				sawHeader.Store(v)
			}
			h.ServeHTTP(w, r)
		})
	})
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "bad", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}}`)},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{}, nil
		},
	})
	cs, err := NewClient("c", "v1", nil).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "bad" {
			t.Error("a tool with an invalid x-mcp-header was not dropped")
		}
	}
	res, err := cs.CallTool(context.Background(), "region", map[string]any{"region": "Hello, 世界", "deep": map[string]any{"n": 7}}, nil)
	if err != nil || res.IsError {
		t.Fatalf("call with mirrored headers: %v %v", res, err)
	}
	if got, _ := sawHeader.Load().(string); got != "=?base64?SGVsbG8sIOS4lueVjA==?=" {
		t.Errorf("Mcp-Param-Region %q", got)
	}
}

func TestStreamableClientNonMCPServer(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer ts.Close()
	_, err := NewClient("c", "v1", nil).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err == nil {
		t.Fatal("connected to a server that is not MCP")
	}
}

func TestStreamableClientListen(t *testing.T) {
	changed := make(chan *ToolListChangedParams, 4)
	acked := make(chan struct{}, 1)
	copts := &ClientOptions{
		ToolListChangedHandler: func(_ context.Context, _ *ClientSession, p *ToolListChangedParams) { changed <- p },
		SubscriptionsAcknowledgedHandler: func(context.Context, *ClientSession, *SubscriptionsAcknowledgedParams) {
			acked <- struct{}{}
		},
	}
	cs, server, _, _ := httpSessionPair(t, nil, nil, copts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.Listen(ctx, &SubscriptionsListenParams{Notifications: SubscriptionFilter{ToolsListChanged: true}})
		done <- err
	}()
	select {
	case <-acked:
	case <-time.After(5 * time.Second):
		t.Fatal("no acknowledgement on the listen stream")
	}
	server.AddTools(&ServerTool{Tool: &Tool{Name: "new", InputSchema: map[string]any{"type": "object"}}, Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
		return &CallToolResult{}, nil
	}})
	select {
	case p := <-changed:
		if p.Meta.SubscriptionID == nil {
			t.Error("list change without its subscription id")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed on the listen stream")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Listen after cancel: %v", err)
	}
	// Closing the response stream cancelled the subscription on the server.
	waitUntil(t, func() bool {
		server.listeners.mu.Lock()
		defer server.listeners.mu.Unlock()
		return len(server.listeners.set) == 0
	})
}

func TestStreamableHTTPCloseEndsListenStreams(t *testing.T) {
	acked := make(chan struct{}, 1)
	copts := &ClientOptions{SubscriptionsAcknowledgedHandler: func(context.Context, *ClientSession, *SubscriptionsAcknowledgedParams) {
		acked <- struct{}{}
	}}
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	cs, err := NewClient("c", "v1", copts).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	done := make(chan error, 1)
	go func() {
		_, err := cs.Listen(context.Background(), &SubscriptionsListenParams{Notifications: SubscriptionFilter{ToolsListChanged: true}})
		done <- err
	}()
	<-acked
	start := time.Now()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v with a listen stream open", d)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Listen still running after the handler closed")
	}
}

func TestStreamableClientNoGoroutineLeft(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}, nil)
	tr := &http.Transport{}
	httpClient := &http.Client{Transport: tr}
	before := runtime.NumGoroutine()
	for _, version := range []string{"", Version20251125} {
		client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
		for range 100 {
			cs, err := client.Connect(context.Background(), NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(context.Background(), "progress", nil, nil); err != nil {
				t.Fatal(err)
			}
			cs.Close()
		}
	}
	tr.CloseIdleConnections()
	waitUntil(t, func() bool { tr.CloseIdleConnections(); return runtime.NumGoroutine() <= before })
}
