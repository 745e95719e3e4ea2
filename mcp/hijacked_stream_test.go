package mcp

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A wireStream is the client end of an event stream read byte by byte
// off its connection.
type wireStream struct {
	t      *testing.T
	conn   net.Conn
	br     *bufio.Reader
	status string
	header http.Header
}

// openWire sends a raw HTTP request on a new connection to ts and reads
// the response head.
func openWire(t *testing.T, ts *httptest.Server, request string) *wireStream {
	t.Helper()
	addr := strings.TrimPrefix(strings.TrimPrefix(ts.URL, "http://"), "https://")
	var conn net.Conn
	var err error
	if ts.TLS != nil {
		conn, err = tls.Dial("tcp", addr, &tls.Config{RootCAs: ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs, ServerName: "127.0.0.1"})
	} else {
		conn, err = net.Dial("tcp", addr)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	ws := &wireStream{t: t, conn: conn, br: bufio.NewReader(conn), header: http.Header{}}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound on the test; a closed conn fails the read anyway
	ws.status = strings.TrimSuffix(ws.line(), "\r\n")
	for {
		l := strings.TrimSuffix(ws.line(), "\r\n")
		if l == "" {
			break
		}
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			t.Fatalf("malformed header line %q", l)
		}
		ws.header.Add(k, v)
	}
	return ws
}

func (ws *wireStream) line() string {
	ws.t.Helper()
	l, err := ws.br.ReadString('\n')
	if err != nil {
		ws.t.Fatalf("reading the response: %v (read %q)", err, l)
	}
	return l
}

// chunk reads one chunk of the body; "" is the last chunk.
func (ws *wireStream) chunk() string {
	ws.t.Helper()
	_ = ws.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	size := strings.TrimSuffix(ws.line(), "\r\n")
	n, err := strconv.ParseInt(size, 16, 32)
	if err != nil {
		ws.t.Fatalf("chunk size %q: %v", size, err)
	}
	b := make([]byte, n+2)
	if _, err := io.ReadFull(ws.br, b); err != nil {
		ws.t.Fatalf("chunk of %d bytes: %v", n, err)
	}
	if string(b[n:]) != "\r\n" {
		ws.t.Fatalf("chunk not ended by CRLF: %q", b)
	}
	return string(b[:n])
}

// chunkWith reads chunks until one contains s.
func (ws *wireStream) chunkWith(s string) string {
	ws.t.Helper()
	for {
		c := ws.chunk()
		if c == "" {
			ws.t.Fatalf("the stream ended before an event with %q", s)
		}
		if strings.Contains(c, s) {
			return c
		}
	}
}

// ended checks that the server ended the body and closed the connection.
func (ws *wireStream) ended() {
	ws.t.Helper()
	for {
		c := ws.chunk()
		if c == "" {
			break
		}
	}
	if n, err := ws.br.Read(make([]byte, 1)); err == nil {
		ws.t.Fatalf("%d bytes after the last chunk", n)
	}
}

// closedByServer checks that the server closes the connection.
func (ws *wireStream) closedByServer() {
	ws.t.Helper()
	_ = ws.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.Copy(io.Discard, ws.br)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		ws.t.Fatal("the server did not close the connection")
	}
}

func hijackedCount(h *StreamableHTTPHandler) int {
	h.conns.mu.Lock()
	defer h.conns.mu.Unlock()
	return len(h.conns.set)
}

// withCORS is middleware that sets CORS headers, as a browser client
// needs them on the stream's response.
func withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "https://app.example")
		w.Header().Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
		next.ServeHTTP(w, r)
	})
}

// listenRequest is a raw subscriptions/listen POST for list changes.
func listenRequest(proto string) string {
	return listenRequestWith(proto, "7", `"notifications":{"toolsListChanged":true}`)
}

// listenRequestWith is a raw subscriptions/listen request with request id
// id (JSON) and the given params members.
func listenRequestWith(proto, id, params string) string {
	body := modernCall(1, MethodSubscriptionsListen, params)
	body = strings.Replace(body, `"id":1`, `"id":`+id, 1)
	return fmt.Sprintf("POST / %s\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n%s", proto, len(body), body)
}

// getRequest is a raw GET stream request of a legacy session.
func getRequest(sid, extra string) string {
	return fmt.Sprintf("GET / HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: %s\r\n%s\r\n", sid, Version20251125, extra)
}

// The wire form of a hijacked subscriptions/listen stream: the response
// head with the middleware's headers, events as chunks, and on handler
// Close the final response, the last chunk and the connection closed.
func TestHijackedListenStreamWire(t *testing.T) {
	before := runtime.NumGoroutine()
	server, h, ts, _ := newHTTPTestWrapped(t, nil, nil, withCORS)
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	if ws.status != "HTTP/1.1 200 OK" {
		t.Fatalf("status line %q", ws.status)
	}
	for k, want := range map[string]string{
		"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "Transfer-Encoding": "chunked", "Connection": "close",
		"Access-Control-Allow-Origin": "https://app.example", "Access-Control-Expose-Headers": "Mcp-Session-Id",
	} {
		if got := ws.header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if ws.header.Get("Date") == "" {
		t.Error("no Date header")
	}
	ack := ws.chunkWith(NotificationSubscriptionsAcknowledged)
	if !strings.HasPrefix(ack, "event: message\ndata: ") || !strings.HasSuffix(ack, "\n\n") {
		t.Errorf("acknowledgement event %q", ack)
	}
	if n := hijackedCount(h); n != 1 {
		t.Fatalf("%d hijacked connections, want 1", n)
	}
	if n := h.Stats().ListenStreams; n != 1 {
		t.Fatalf("%d listen streams, want 1", n)
	}
	server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: objectSchema()}, Handler: nopToolHandler})
	ev := ws.chunkWith(NotificationToolListChanged)
	if !strings.Contains(ev, `"io.modelcontextprotocol/subscriptionId":7`) {
		t.Errorf("list change without the subscription id: %q", ev)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	ws.chunkWith(`"id":7`) // the listen request's response ends the stream
	ws.ended()
	if n := hijackedCount(h); n != 0 {
		t.Errorf("%d hijacked connections after Close", n)
	}
	ts.Close()
	http.DefaultClient.CloseIdleConnections()
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
}

// A client that closes its listen connection ends the stream: the
// request's context is cancelled and the stream no longer counts.
func TestHijackedListenStreamClientLeaves(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	if n := hijackedCount(h); n != 1 {
		t.Fatalf("%d hijacked connections, want 1", n)
	}
	ws.conn.Close()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && h.Stats().Requests == 0 })
	if n := hijackedCount(h); n != 0 {
		t.Errorf("%d hijacked connections after the client left", n)
	}
}

// objectSchema is the input schema of a tool without arguments.
func objectSchema() map[string]any { return map[string]any{"type": "object"} }

func nopToolHandler(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
	return &CallToolResult{}, nil
}

// legacySession starts a legacy session on ts and returns its id.
func legacySession(t *testing.T, ts *httptest.Server) string {
	t.Helper()
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	return c.sid
}

// The wire form of a hijacked legacy GET stream, which ends with the last
// chunk when its session is deleted.
func TestHijackedGETStreamWire(t *testing.T) {
	server, h, ts, _ := newHTTPTestWrapped(t, nil, nil, withCORS)
	sid := legacySession(t, ts)
	ws := openWire(t, ts, getRequest(sid, ""))
	if ws.status != "HTTP/1.1 200 OK" || ws.header.Get("Content-Type") != "text/event-stream" ||
		ws.header.Get("Transfer-Encoding") != "chunked" || ws.header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Fatalf("response head %q %v", ws.status, ws.header)
	}
	waitUntil(t, func() bool { return standaloneAttached(h.session(sid)) })
	if n := hijackedCount(h); n != 1 {
		t.Fatalf("%d hijacked connections, want 1", n)
	}
	server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: objectSchema()}, Handler: nopToolHandler})
	if ev := ws.chunkWith(NotificationToolListChanged); !strings.HasPrefix(ev, "event: message\ndata: {") {
		t.Errorf("event %q", ev)
	}
	resp := (&rawClient{t: t, url: ts.URL, sid: sid}).do(http.MethodDelete, "", nil)
	resp.Body.Close()
	ws.ended()
	waitUntil(t, func() bool { return hijackedCount(h) == 0 })
}

// A client that leaves its hijacked GET stream detaches it; the session
// lives on, and a new GET attaches again.
func TestHijackedGETStreamClientLeaves(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	sid := legacySession(t, ts)
	ws := openWire(t, ts, getRequest(sid, ""))
	sess := h.session(sid)
	waitUntil(t, func() bool { return standaloneAttached(sess) })
	ws.conn.Close()
	waitUntil(t, func() bool { return !standaloneAttached(sess) && hijackedCount(h) == 0 })
	sess.mu.Lock()
	active := sess.active
	sess.mu.Unlock()
	if active != 0 {
		t.Errorf("session in use %d times after its stream closed", active)
	}
	if h.session(sid) == nil {
		t.Fatal("the session ended with its stream")
	}
	ws = openWire(t, ts, getRequest(sid, ""))
	waitUntil(t, func() bool { return standaloneAttached(sess) })
	if err := sess.ss.Notify(context.Background(), "notifications/test", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	ws.chunkWith("notifications/test")
}

// Bytes a client sends on a hijacked stream's connection (a pipelined
// request) close it, whether they came with the request or later.
func TestHijackedStreamPipelinedBytes(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	sid := legacySession(t, ts)
	sess := h.session(sid)

	ws := openWire(t, ts, getRequest(sid, ""))
	waitUntil(t, func() bool { return standaloneAttached(sess) })
	if _, err := io.WriteString(ws.conn, getRequest(sid, "")); err != nil {
		t.Fatal(err)
	}
	ws.closedByServer()
	waitUntil(t, func() bool { return !standaloneAttached(sess) && hijackedCount(h) == 0 })

	// Two requests in one write: the second is buffered when the first's
	// stream takes the connection.
	addr := strings.TrimPrefix(ts.URL, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, getRequest(sid, "")+getRequest(sid, "")); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound on the test; a closed conn fails the read anyway
	if _, err := io.Copy(io.Discard, conn); err != nil {
		t.Fatalf("the server did not close the connection: %v", err)
	}
	waitUntil(t, func() bool { return !standaloneAttached(sess) && hijackedCount(h) == 0 })
	ws = openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	io.WriteString(ws.conn, "GET / HTTP/1.1\r\n\r\n")
	ws.closedByServer()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && hijackedCount(h) == 0 })
}

// noHijack is middleware whose ResponseWriter cannot hijack (it hides
// the one it wraps and has no Unwrap).
func noHijack(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(struct {
			http.ResponseWriter
			http.Flusher
		}{w, w.(http.Flusher)}, r)
	})
}

// Where the connection cannot or may not be taken, both streams are
// served by net/http as before: HTTP/1.0, a ResponseWriter that cannot
// hijack, DisableStreamHijack, HTTP/2.
func TestHijackFallback(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  *StreamableHTTPOptions
		wrap  func(http.Handler) http.Handler
		proto string
	}{
		{"option", &StreamableHTTPOptions{DisableStreamHijack: true}, nil, "HTTP/1.1"},
		{"no hijacker", nil, noHijack, "HTTP/1.1"},
		{"HTTP/1.0", nil, nil, "HTTP/1.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server, h, ts, _ := newHTTPTestWrapped(t, tc.opts, nil, tc.wrap)
			ws := openWire(t, ts, listenRequest(tc.proto))
			if !strings.HasSuffix(ws.status, " 200 OK") {
				t.Fatalf("status %q", ws.status)
			}
			br := ws.br
			if tc.proto == "HTTP/1.1" {
				ws.chunkWith(NotificationSubscriptionsAcknowledged)
			} else {
				waitUntil(t, func() bool { return h.Stats().ListenStreams == 1 })
			}
			if n := hijackedCount(h); n != 0 {
				t.Fatalf("%d hijacked connections", n)
			}
			if tc.proto == "HTTP/1.1" {
				sid := legacySession(t, ts)
				get := openWire(t, ts, getRequest(sid, ""))
				waitUntil(t, func() bool { return standaloneAttached(h.session(sid)) })
				if n := hijackedCount(h); n != 0 {
					t.Fatalf("%d hijacked connections", n)
				}
				server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: objectSchema()}, Handler: nopToolHandler})
				get.chunkWith(NotificationToolListChanged)
				ws.chunkWith(NotificationToolListChanged)
				return
			}
			server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: objectSchema()}, Handler: nopToolHandler})
			for {
				l, err := br.ReadString('\n')
				if err != nil {
					t.Fatalf("no list change on the HTTP/1.0 stream: %v", err)
				}
				if strings.Contains(l, NotificationToolListChanged) {
					break
				}
			}
		})
	}
}

// A listen stream over HTTP/2 stays on net/http.
func TestHijackFallbackHTTP2(t *testing.T) {
	server := NewServer("h2", "v1", nil)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewUnstartedServer(h)
	ts.EnableHTTP2 = true
	ts.StartTLS()
	defer ts.Close()
	defer h.Close()
	body := modernCall(7, MethodSubscriptionsListen, `"notifications":{"toolsListChanged":true}`)
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
	for k, v := range modernHeaders(MethodSubscriptionsListen, "") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Fatalf("served over %s", resp.Proto)
	}
	r := newSSEReader(resp.Body, 1<<20)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if n := hijackedCount(h); n != 0 {
		t.Fatalf("%d hijacked connections over HTTP/2", n)
	}
}

// A listen stream over TLS takes its connection too (tls.Conn): its
// writes go through the connection's writer.
func TestHijackedStreamTLS(t *testing.T) {
	server := NewServer("tls", "v1", nil)
	server.AddTools(&ServerTool{Tool: &Tool{Name: "first", InputSchema: objectSchema()}, Handler: nopToolHandler})
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewTLSServer(h)
	defer ts.Close()
	defer h.Close()
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	if n := hijackedCount(h); n != 1 {
		t.Fatalf("%d hijacked connections, want 1", n)
	}
	server.AddTools(&ServerTool{Tool: &Tool{Name: "late", InputSchema: objectSchema()}, Handler: nopToolHandler})
	ws.chunkWith(NotificationToolListChanged)
	ws.conn.Close()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && hijackedCount(h) == 0 })
}

// A hijacked GET stream of a resumable session: events carry ids, and a
// client that lost the connection resumes with Last-Event-ID on a new,
// also hijacked, connection and gets what it missed.
func TestHijackedGETStreamResumes(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}, nil)
	sid := legacySession(t, ts)
	sess := h.session(sid)
	ws := openWire(t, ts, getRequest(sid, ""))
	prime := ws.chunk()
	if !strings.HasPrefix(prime, "id: ") {
		t.Fatalf("priming event %q", prime)
	}
	notify := func(n int) {
		if err := sess.ss.Notify(context.Background(), "notifications/test", map[string]any{"n": n}); err != nil {
			t.Fatal(err)
		}
	}
	notify(1)
	first := ws.chunkWith(`"n":1`)
	id := strings.TrimPrefix(strings.Split(first, "\n")[1], "id: ")
	if !strings.HasPrefix(first, "event: message\nid: ") || id == "" {
		t.Fatalf("event %q", first)
	}
	ws.conn.Close()
	waitUntil(t, func() bool { return !standaloneAttached(sess) })
	notify(2)
	notify(3)
	ws = openWire(t, ts, getRequest(sid, "Last-Event-ID: "+id+"\r\n"))
	if ws.header.Get("Transfer-Encoding") != "chunked" {
		t.Fatalf("resumed response head %v", ws.header)
	}
	ws.chunkWith(`"n":2`)
	ws.chunkWith(`"n":3`)
	if n := hijackedCount(h); n != 1 {
		t.Fatalf("%d hijacked connections, want 1", n)
	}
	notify(4)
	ws.chunkWith(`"n":4`)
}

// Server.Close ends a listen stream written by its broadcasters at once
// and gracefully: the listen request's result, then the last chunk.
func TestHijackedListenStreamServerClose(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 1 })
	time.Sleep(20 * time.Millisecond) // the listener waits on its connection
	server.Close()
	res := ws.chunkWith(`"id":7`)
	if !strings.Contains(res, `"result"`) || !strings.Contains(res, `"io.modelcontextprotocol/subscriptionId":7`) {
		t.Errorf("final response %q", res)
	}
	ws.ended()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && hijackedCount(h) == 0 })
}

// refusingHijacker is a ResponseWriter whose Hijack method fails.
type refusingHijacker struct{ http.ResponseWriter }

func (w refusingHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, http.ErrNotSupported
}

func (w refusingHijacker) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// A listen stream whose connection cannot be taken after all stays on
// net/http, and still ends when its client leaves.
func TestHijackRefusedListenStreamClientLeaves(t *testing.T) {
	_, h, ts, _ := newHTTPTestWrapped(t, nil, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(refusingHijacker{w}, r)
		})
	})
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	if n := hijackedCount(h); n != 0 {
		t.Fatalf("%d hijacked connections", n)
	}
	ws.conn.Close()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && h.Stats().Requests == 0 })
}

// Handler Close closes a hijacked connection whose client stopped
// reading, with events still waiting to be written: no goroutine is left
// writing to it.
func TestHijackedStreamCloseWithSlowClient(t *testing.T) {
	before := runtime.NumGoroutine()
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{WriteTimeout: time.Minute}, nil)
	sid := legacySession(t, ts)
	sess := h.session(sid)
	ws := openWire(t, ts, getRequest(sid, ""))
	waitUntil(t, func() bool { return standaloneAttached(sess) })
	params := map[string]any{"data": strings.Repeat("d", 64<<10)}
	for range 200 { // more than the socket buffers hold
		if err := sess.ss.Notify(context.Background(), "notifications/test", params); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if err := h.Close(); err != nil {
		t.Error(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if n := hijackedCount(h); n != 0 {
		t.Errorf("%d hijacked connections after Close", n)
	}
	ws.closedByServer()
	ts.Close()
	http.DefaultClient.CloseIdleConnections()
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
}

// A resource update broadcast to hijacked listen streams is encoded once
// and carries each stream's own subscription id, whatever its JSON type.
func TestHijackedListenResourceUpdatedSpliced(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	const uri = "file:///watched"
	server.AddResources(&ServerResource{Resource: &Resource{URI: uri, Name: "w"}, Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
		return &ReadResourceResult{}, nil
	}})
	open := func(id string) *wireStream {
		ws := openWire(t, ts, listenRequestWith("HTTP/1.1", id, fmt.Sprintf(`"notifications":{"resourceSubscriptions":[%q]}`, uri)))
		ws.chunkWith(NotificationSubscriptionsAcknowledged)
		return ws
	}
	ids := []string{`7`, `"s\"1"`}
	streams := []*wireStream{open(ids[0]), open(ids[1])}
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 2 && hijackedCount(h) == 2 })
	time.Sleep(20 * time.Millisecond) // both listeners write directly
	for round := range 2 {
		if err := server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
		for i, ws := range streams {
			ev := ws.chunkWith(NotificationResourceUpdated)
			data, ok := strings.CutPrefix(ev, "event: message\ndata: ")
			if !ok || !strings.HasSuffix(data, "\n\n") {
				t.Fatalf("round %d, stream %d: event %q", round, i, ev)
			}
			want := `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":` + ids[i] + `},"uri":"` + uri + `"}}`
			if got := strings.TrimSuffix(data, "\n\n"); got != want {
				t.Errorf("round %d, stream %d:\n got %s\nwant %s", round, i, got, want)
			}
		}
	}
}
