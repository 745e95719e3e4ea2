package mcp

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestStreamableClientIdleSessionHasNoGoroutine checks that an idle client
// session over streamable HTTP runs no goroutine, in both eras: its
// connection delivers what it reads itself (a jsonrpc2.PushStream), and a
// legacy session opens no GET stream until something needs it.
func TestStreamableClientIdleSessionHasNoGoroutine(t *testing.T) {
	for _, version := range []string{Version20260728, Version20251125} {
		t.Run(version, func(t *testing.T) {
			_, _, ts, _ := newHTTPTest(t, nil, nil)
			transport := &http.Transport{}
			httpClient := &http.Client{Transport: transport}
			client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
			ctx := context.Background()
			connect := func() *ClientSession {
				cs, err := client.Connect(ctx, NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient}))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			}
			// Warm up: the first session starts the HTTP machinery.
			connect()
			transport.CloseIdleConnections()
			before := runtime.NumGoroutine()
			for range 20 {
				cs := connect()
				if cs.ProtocolVersion() != version {
					t.Fatalf("negotiated %s", cs.ProtocolVersion())
				}
				if _, err := cs.ListTools(ctx, nil); err != nil {
					t.Fatal(err)
				}
			}
			transport.CloseIdleConnections()
			waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
		})
	}
}

// BenchmarkStreamableClientIdleSession measures the live heap of idle
// client sessions over streamable HTTP, 2026-07-28 and legacy, with the
// server in the same process. Legacy figures include the server's own
// session (about 1.4 KiB; see TestStreamableHTTPIdleSessionCost); the
// bench module separates the two with the server in a child process.
func BenchmarkStreamableClientIdleSession(b *testing.B) {
	for _, era := range []struct{ name, version string }{{"modern", ""}, {"legacy", Version20251125}} {
		b.Run(era.name, func(b *testing.B) {
			_, _, ts, _ := newHTTPTest(b, nil, nil)
			transport := &http.Transport{}
			httpClient := &http.Client{Transport: transport}
			client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: era.version})
			ctx := context.Background()
			const n = 200
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				g0 := runtime.NumGoroutine()
				sessions := make([]*ClientSession, 0, n)
				for range n {
					cs, err := client.Connect(ctx, NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient}))
					if err != nil {
						b.Fatal(err)
					}
					sessions = append(sessions, cs)
				}
				transport.CloseIdleConnections()
				for range 4 {
					runtime.GC()
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/n, "heap-B/session")
				b.ReportMetric(float64(runtime.NumGoroutine()-g0)/n, "goroutines/session")
				for _, cs := range sessions {
					cs.Close()
				}
			}
		})
	}
}

// TestStreamableClientOpensGETStreamOnDemand checks when a legacy session
// opens the GET stream on which the server sends messages unrelated to any
// request: at connect only if the client has a handler or roots for such
// messages, otherwise on its first Subscribe or roots change, and never
// with DisableStandaloneSSE.
func TestStreamableClientOpensGETStreamOnDemand(t *testing.T) {
	noop := func(context.Context, *ClientSession, *ToolListChangedParams) {}
	tests := []struct {
		name    string
		opts    ClientOptions
		roots   bool                          // the client has roots before connecting
		disable bool                          // DisableStandaloneSSE
		then    func(*Client, *ClientSession) // what the user does after connecting
		atStart bool                          // GET stream open right after connect
		atEnd   bool                          // GET stream open after then
	}{
		{name: "default client", atStart: false, atEnd: false},
		{name: "list-changed handler", opts: ClientOptions{ToolListChangedHandler: noop}, atStart: true, atEnd: true},
		{name: "roots", roots: true, atStart: true, atEnd: true},
		{name: "subscribe", then: func(_ *Client, cs *ClientSession) {
			if err := cs.Subscribe(context.Background(), &SubscribeParams{URI: "file:///x"}); err != nil {
				t.Errorf("Subscribe: %v", err)
			}
		}, atStart: false, atEnd: true},
		// A session that declared no roots (the client had none) is
		// not told of roots added later, and so opens no stream.
		{name: "roots added", then: func(c *Client, _ *ClientSession) {
			c.AddRoots(&Root{URI: "file:///tmp"})
		}, atStart: false, atEnd: false},
		{name: "roots change", opts: ClientOptions{Capabilities: &ClientCapabilities{Roots: &RootsCapability{ListChanged: true}}}, then: func(c *Client, _ *ClientSession) {
			c.AddRoots(&Root{URI: "file:///tmp"})
		}, atStart: false, atEnd: true},
		{name: "disabled", opts: ClientOptions{ToolListChangedHandler: noop}, disable: true, then: func(c *Client, _ *ClientSession) {
			c.AddRoots(&Root{URI: "file:///tmp"})
		}, atStart: false, atEnd: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counter := &countingHandler{}
			server, _, ts, _ := newHTTPTestWrapped(t, nil, &ServerOptions{
				SubscribeHandler:   func(context.Context, *ServerSession, *SubscribeParams) error { return nil },
				UnsubscribeHandler: func(context.Context, *ServerSession, *UnsubscribeParams) error { return nil },
			},
				func(h http.Handler) http.Handler { counter.next = h; return counter })
			opts := tt.opts
			opts.ProtocolVersion = Version20251125
			client := NewClient("c", "v1", &opts)
			if tt.roots {
				client.AddRoots(&Root{URI: "file:///tmp"})
			}
			cs, err := client.Connect(context.Background(), NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{DisableStandaloneSSE: tt.disable}))
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			ss := slicesOf(server.Sessions())[0]
			attached := func() bool { return standaloneAttached(ss.conn.(*httpSession)) }
			if tt.atStart {
				waitUntil(t, attached)
			} else if attached() || slices.Contains(counter.requests(), http.MethodGet) {
				t.Fatalf("GET stream opened at connect: %v", counter.requests())
			}
			if tt.then != nil {
				tt.then(client, cs)
			}
			if tt.atEnd {
				waitUntil(t, attached)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if err := ss.Ping(ctx, nil); err != nil {
					t.Fatalf("server ping over the GET stream: %v", err)
				}
			} else {
				time.Sleep(50 * time.Millisecond) // a stream opened by mistake would show by now
				if slices.Contains(counter.requests(), http.MethodGet) {
					t.Fatalf("GET stream opened: %v", counter.requests())
				}
				if err := ss.Ping(context.Background(), nil); !errors.Is(err, errNoClientStream) {
					t.Fatalf("server ping without a GET stream: %v, want errNoClientStream", err)
				}
			}
		})
	}
}

// TestKeepAliveSparesHTTPClientWithoutGETStream checks that a server's
// keepalive does not end a legacy HTTP session whose client opened no GET
// stream: such a client cannot be pinged, and its session ends by idle
// expiry instead.
func TestKeepAliveSparesHTTPClientWithoutGETStream(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, &ServerOptions{KeepAlive: 10 * time.Millisecond})
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125}).Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	time.Sleep(100 * time.Millisecond) // several keepalive rounds
	res, err := cs.CallTool(context.Background(), "echo", map[string]string{"text": "still here"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("call after keepalive rounds: %v %v", res, err)
	}
}
