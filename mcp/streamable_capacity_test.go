package mcp

import (
	"context"
	"fmt"
	"github.com/gomcp/sdk/internal/goldentest"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStreamableHTTPMaxSessions(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{MaxSessions: 2}, nil)
	a := &rawClient{t: t, url: ts.URL}
	a.initialize(Version20251125)
	b := &rawClient{t: t, url: ts.URL}
	b.initialize(Version20251125)
	if n := h.Stats().Sessions; n != 2 {
		t.Fatalf("Stats().Sessions = %d, want 2", n)
	}
	// The handler is full, and no session has expired: 503, Retry-After.
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	msgs := readMessages(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || resp.Header.Get(headerSessionID) != "" {
		t.Fatalf("initialize beyond MaxSessions: %s, Retry-After %q, session %q", resp.Status, resp.Header.Get("Retry-After"), resp.Header.Get(headerSessionID))
	}
	if len(msgs) != 1 || errorCode(msgs[0]) != CodeInternalError || !strings.Contains(fmt.Sprint(msgs[0]), "too many sessions") {
		t.Errorf("refusal: %v", msgs)
	}
	// Existing sessions are served as before.
	if msgs := readMessages(t, a.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}}`, nil)); resultText(msgs[0]) != "a" {
		t.Fatalf("existing session: %v", msgs)
	}
	// A session past its timeout whose timer has not fired yet is swept
	// to make room.
	sess := h.session(b.sid)
	sess.lastUsed.Store(time.Now().Add(-2 * DefaultSessionTimeout).UnixNano())
	c.initialize(Version20251125)
	if h.session(b.sid) != nil {
		t.Error("the expired session was not swept")
	}
	// Deleting a session makes room too.
	resp = a.do(http.MethodDelete, "", nil)
	resp.Body.Close()
	d := &rawClient{t: t, url: ts.URL}
	d.initialize(Version20251125)
	if n := h.Stats().Sessions; n != 2 {
		t.Errorf("Stats().Sessions = %d, want 2", n)
	}
}

func TestStreamableHTTPMaxListenStreams(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{MaxListenStreams: 1}, nil)
	listen := modernCall(1, MethodSubscriptionsListen, `"notifications":{"toolsListChanged":true}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, strings.NewReader(listen))
	for k, v := range modernHeaders(MethodSubscriptionsListen, "") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	first, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 1 })
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(modernCall(2, MethodSubscriptionsListen, `"notifications":{"toolsListChanged":true}`), modernHeaders(MethodSubscriptionsListen, ""))
	msgs := readMessages(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || len(msgs) != 1 || errorCode(msgs[0]) != CodeInternalError {
		t.Fatalf("listen beyond MaxListenStreams: %s %v", resp.Status, msgs)
	}
	// Other requests are not affected.
	if msgs := readMessages(t, c.post(modernCall(3, MethodCallTool, `"name":"echo","arguments":{"text":"x"}`), modernHeaders(MethodCallTool, "echo"))); resultText(msgs[0]) != "x" {
		t.Fatalf("tools/call beside a full listen set: %v", msgs)
	}
	cancel() // the client ends its stream
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 })
}

// A client that sends requests and never reads the responses is dropped
// once a write has waited WriteTimeout: it holds no handler and no
// connection after that.
func TestStreamableHTTPNonReadingClientIsDropped(t *testing.T) {
	server := NewServer("s", "v1", nil)
	big := strings.Repeat("x", 8<<20)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "big", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{Content: []*Content{NewTextContent(big)}}, nil
		},
	})
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, &StreamableHTTPOptions{WriteTimeout: 200 * time.Millisecond})
	closed := make(chan struct{}, 8)
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateClosed {
			closed <- struct{}{}
		}
	}
	ts.Start()
	defer ts.Close()
	defer h.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096) // keep the kernel from absorbing the response
	}
	body := modernCall(1, MethodCallTool, `"name":"big"`)
	var req strings.Builder
	for range 4 { // pipelined requests, none of whose responses is read
		fmt.Fprintf(&req, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
			"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: big\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	if _, err := conn.Write([]byte(req.String())); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("a client that does not read still holds its connection (%d requests in progress)", h.Stats().Requests)
	}
	waitUntil(t, func() bool { return h.Stats().Requests == 0 })
}

// What the handler cannot return to anyone goes to its Logger.
func TestStreamableHTTPLogger(t *testing.T) {
	var log goldentest.Buffer
	logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{Logger: logger, SessionTimeout: 50 * time.Millisecond, MaxSessions: 1}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	refused := (&rawClient{t: t, url: ts.URL}).post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	refused.Body.Close()
	waitUntil(t, func() bool { return h.Stats().Sessions == 0 }) // expired
	for _, want := range []string{"refused a new session", "closing an expired session"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// A listen client that stops reading does not hold up the notifications
// of the others: each stream has its own bounded queue, and a client that
// falls too far behind is dropped.
func TestStreamableHTTPSlowListenerDoesNotBlockOthers(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{WriteTimeout: 10 * time.Second}, nil)
	uri := "file:///" + strings.Repeat("u", 8<<10)
	server.AddResources(&ServerResource{Resource: &Resource{URI: uri, Name: "big"}, Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
		return &ReadResourceResult{}, nil
	}})
	body := modernCall(1, MethodSubscriptionsListen, fmt.Sprintf(`"notifications":{"resourceSubscriptions":[%q]}`, uri))

	// The slow client: it sends its listen request and never reads.
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096) // keep the kernel from absorbing the response, as above
	}
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 1 })

	// The fast client reads everything.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, strings.NewReader(body))
	for k, v := range modernHeaders(MethodSubscriptionsListen, "") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	const n = 1000
	events := make(chan struct{}, n+1)
	go func() {
		r := newSSEReader(resp.Body, 1<<20)
		for {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if strings.Contains(string(ev.Data), NotificationResourceUpdated) {
				events <- struct{}{}
			}
		}
	}()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 2 })
	time.Sleep(100 * time.Millisecond) // both listeners registered after their acknowledgment

	start := time.Now()
	for range n {
		// An error reports the client dropped for not reading.
		_ = server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: uri})
	}
	for i := range n {
		select {
		case <-events:
		case <-time.After(5 * time.Second):
			t.Fatalf("the reading listener got %d of %d notifications after %v", i, n, time.Since(start))
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("delivery to the reading listener took %v, held up by the one that does not read", d)
	}
	// The client that does not read was dropped: its stream ends once its
	// write in progress times out.
	deadline := time.Now().Add(15 * time.Second)
	for h.Stats().ListenStreams != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d listen streams: the client that does not read was not dropped", h.Stats().ListenStreams)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Likewise, a legacy session whose GET stream is not read does not hold
// up notifications to the other sessions' GET streams.
func TestStreamableHTTPSlowGETStreamDoesNotBlockOthers(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{WriteTimeout: 10 * time.Second}, nil)
	slow := &rawClient{t: t, url: ts.URL}
	slow.initialize(Version20251125)
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096) // keep the kernel from absorbing the response, as above
	}
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: %s\r\n\r\n", slow.sid, Version20251125)
	slowSess := waitSession(t, h, slow.sid)
	waitUntil(t, func() bool { return standaloneAttached(slowSess) })

	fast := &rawClient{t: t, url: ts.URL}
	fast.initialize(Version20251125)
	get := fast.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream"})
	defer get.Body.Close()
	fastSess := waitSession(t, h, fast.sid)
	waitUntil(t, func() bool { return standaloneAttached(fastSess) })
	const n = 1000
	events := make(chan struct{}, n+1)
	go func() {
		r := newSSEReader(get.Body, 1<<20)
		for {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if strings.Contains(string(ev.Data), "notifications/test") {
				events <- struct{}{}
			}
		}
	}()
	params := map[string]any{"data": strings.Repeat("d", 8<<10)}
	start := time.Now()
	for range n { // a broadcast, one session after the other
		for _, sess := range []*httpSession{slowSess, fastSess} {
			if err := sess.ss.Notify(context.Background(), "notifications/test", params); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range n {
		select {
		case <-events:
		case <-time.After(5 * time.Second):
			t.Fatalf("the reading GET stream got %d of %d notifications after %v", i, n, time.Since(start))
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("delivery to the reading GET stream took %v, held up by the one that does not read", d)
	}
	// The stream that is not read lost its connection; its session lives on.
	waitUntil(t, func() bool { return !standaloneAttached(slowSess) })
	if h.session(slow.sid) == nil {
		t.Error("the session of the dropped GET stream was closed")
	}
}
