package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestStreamableHTTPRequestChecks(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{MaxBodyBytes: 1 << 10}, nil)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	tests := []struct {
		name   string
		method string
		body   string
		hdr    map[string]string
		status int
		code   ErrorCode // JSON-RPC error code of the body, if any
	}{
		{"foreign Host is refused", "POST", init, map[string]string{"Host": "evil.example.com"}, 403, CodeInvalidRequest},
		{"cross-site Origin is refused", "POST", init, map[string]string{"Origin": "http://evil.example.com"}, 403, CodeInvalidRequest},
		{"null Origin is refused", "POST", init, map[string]string{"Origin": "null"}, 403, CodeInvalidRequest},
		{"same-origin request is served", "POST", init, map[string]string{"Origin": "http://" + strings.TrimPrefix(ts.URL, "http://")}, 200, 0},
		{"wrong Content-Type", "POST", init, map[string]string{"Content-Type": "text/plain"}, 415, CodeInvalidRequest},
		{"Accept without SSE", "POST", init, map[string]string{"Accept": "application/json"}, 406, CodeInvalidRequest},
		{"no Accept", "POST", init, map[string]string{"Accept": ""}, 406, CodeInvalidRequest},
		{"wildcard Accept", "POST", init, map[string]string{"Accept": "*/*"}, 200, 0},
		{"malformed JSON", "POST", `{"jsonrpc":"2.0",`, nil, 400, CodeParseError},
		{"not JSON-RPC", "POST", `{"hello":1}`, nil, 400, CodeInvalidRequest},
		{"duplicate keys", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"initialize"}`, nil, 400, CodeInvalidRequest},
		{"oversized body", "POST", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"` + strings.Repeat("x", 2000) + `"}}`, nil, 413, CodeInvalidRequest},
		{"request without session", "POST", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, nil, 400, CodeInvalidRequest},
		{"unknown session", "POST", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, map[string]string{headerSessionID: "nope"}, 404, CodeInvalidRequest},
		{"unsupported protocol version header", "POST", init, map[string]string{headerProtocolVersion: "1999-01-01"}, 400, CodeInvalidRequest},
		{"GET without session", "GET", "", map[string]string{"Accept": "text/event-stream"}, 400, CodeInvalidRequest},
		{"GET unknown session", "GET", "", map[string]string{"Accept": "text/event-stream", headerSessionID: "nope"}, 404, CodeInvalidRequest},
		{"DELETE unknown session", "DELETE", "", map[string]string{headerSessionID: "nope"}, 404, CodeInvalidRequest},
		{"PUT", "PUT", "", nil, 405, CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &rawClient{t: t, url: ts.URL}
			resp := c.do(tt.method, tt.body, tt.hdr)
			msgs := readMessages(t, resp)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d (%v)", resp.StatusCode, tt.status, msgs)
			}
			if tt.code != 0 && (len(msgs) != 1 || errorCode(msgs[0]) != tt.code) {
				t.Errorf("body %v, want error code %d", msgs, tt.code)
			}
		})
	}
}

func TestStreamableHTTPOversizedBatch(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20250326)
	batch := "[" + strings.Repeat(`{"jsonrpc":"2.0","method":"n"},`, 300) + `{"jsonrpc":"2.0","method":"n"}]`
	resp := c.post(batch, nil)
	readMessages(t, resp)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("batch of 301: status %d, want 413", resp.StatusCode)
	}
}

func TestStreamableHTTPAllowedHostsAndOrigins(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{AllowedHosts: []string{"mcp.example.com"}, AllowedOrigins: []string{"https://app.example.com"}}, nil)
	ping := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tt := range []struct {
		host, origin string
		status       int
	}{
		{"mcp.example.com", "", 200},
		{"mcp.example.com:8443", "https://app.example.com", 200},
		{"mcp.example.com", "https://mcp.example.com", 200},
		{"mcp.example.com", "https://other.example.com", 403},
		{"localhost", "", 403}, // configured hosts replace the default
	} {
		c := &rawClient{t: t, url: ts.URL}
		resp := c.post(ping, map[string]string{"Host": tt.host, "Origin": tt.origin})
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("Host %q Origin %q: status %d, want %d", tt.host, tt.origin, resp.StatusCode, tt.status)
		}
	}
}

func TestStreamableHTTPLegacySession(t *testing.T) {
	server, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	for _, b := range []byte(c.sid) {
		if b < 0x21 || b > 0x7e {
			t.Fatalf("session ID %q has non-visible byte %#x", c.sid, b)
		}
	}
	if len(c.sid) < 22 {
		t.Errorf("session ID %q is too short to be unguessable", c.sid)
	}
	waitUntil(t, func() bool { return len(slicesOf(server.Sessions())) == 1 })

	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, nil)
	msgs := readMessages(t, resp)
	if resp.StatusCode != 200 || !isMediaType(resp.Header.Get("Content-Type"), mediaJSON) || len(msgs) != 1 || resultText(msgs[0]) != "hi" {
		t.Fatalf("tools/call: %s %s %v", resp.Status, resp.Header.Get("Content-Type"), msgs)
	}
	// Without the version header, the session still works (2025-03-26 default).
	resp = c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, map[string]string{headerProtocolVersion: ""})
	if msgs := readMessages(t, resp); resp.StatusCode != 200 || errorCode(msgs[0]) != 0 {
		t.Fatalf("tools/list: %s %v", resp.Status, msgs)
	}
	// A modern-only method is not part of the session's protocol.
	resp = c.post(`{"jsonrpc":"2.0","id":4,"method":"server/discover"}`, nil)
	if msgs := readMessages(t, resp); errorCode(msgs[0]) != CodeMethodNotFound {
		t.Fatalf("server/discover in a legacy session: %v", msgs)
	}

	resp = c.do(http.MethodDelete, "", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %s", resp.Status)
	}
	resp = c.post(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("request after DELETE: %s, want 404", resp.Status)
	}
	waitUntil(t, func() bool { return len(slicesOf(server.Sessions())) == 0 })
}

func TestStreamableHTTPLegacyStreams(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)

	t.Run("notifications related to a request go on its stream", func(t *testing.T) {
		resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"tok"}}}`, nil)
		msgs := readMessages(t, resp)
		if !isMediaType(resp.Header.Get("Content-Type"), mediaSSE) || len(msgs) != 4 {
			t.Fatalf("got %s with %v", resp.Header.Get("Content-Type"), msgs)
		}
		for _, m := range msgs[:3] {
			if m["method"] != NotificationProgress {
				t.Errorf("before the response: %v", m)
			}
		}
		if resultText(msgs[3]) != "done" {
			t.Errorf("last message %v, want the response", msgs[3])
		}
	})

	t.Run("server-to-client request on the request's stream", func(t *testing.T) {
		resp := c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ping"}}`, nil)
		defer resp.Body.Close()
		r := newSSEReader(resp.Body, 0)
		ev, err := r.Next()
		for err == nil && len(ev.Data) == 0 {
			ev, err = r.Next()
		}
		if err != nil {
			t.Fatal(err)
		}
		ping := decodeMap(t, ev.Data)
		if ping["method"] != MethodPing {
			t.Fatalf("first event %v, want a ping request", ping)
		}
		id, _ := ping["id"].(float64)
		ack := c.post(`{"jsonrpc":"2.0","id":`+formatFloat(id)+`,"result":{}}`, nil)
		ack.Body.Close()
		if ack.StatusCode != http.StatusAccepted {
			t.Fatalf("posting the response: %s", ack.Status)
		}
		ev, err = r.Next()
		if err != nil || resultText(decodeMap(t, ev.Data)) != "pong" {
			t.Fatalf("after answering the ping: %v %s", err, ev.Data)
		}
	})
}

func TestStreamableHTTPGETStreamCarriesUnrelatedMessages(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream"})
	defer get.Body.Close()
	if get.StatusCode != 200 || !isMediaType(get.Header.Get("Content-Type"), mediaSSE) {
		t.Fatalf("GET: %s %s", get.Status, get.Header.Get("Content-Type"))
	}
	done := make(chan map[string]any, 1)
	go func() {
		r := newSSEReader(get.Body, 0)
		for {
			ev, err := r.Next()
			if err != nil {
				close(done)
				return
			}
			if len(ev.Data) > 0 {
				var m map[string]any
				_ = json.Unmarshal(ev.Data, &m) // not an object: m stays nil, which the receiver fails on
				done <- m
				return
			}
		}
	}()
	// A ping with no request in progress goes to the GET stream.
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return standaloneAttached(sess) })
	go sess.ss.Ping(t.Context(), nil)
	select {
	case m := <-done:
		if m["method"] != MethodPing {
			t.Fatalf("GET stream got %v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing on the GET stream")
	}
}

func TestStreamableHTTPConcurrentPOSTStreams(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := c.post(`{"jsonrpc":"2.0","id":`+formatFloat(float64(100+i))+`,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":`+formatFloat(float64(i))+`}}}`, nil)
			msgs := readMessages(t, resp)
			if len(msgs) != 4 || resultText(msgs[3]) != "done" {
				errs <- resp.Status
				return
			}
			for _, m := range msgs[:3] {
				p, _ := m["params"].(map[string]any)
				if p["progressToken"] != float64(i) {
					errs <- "progress of another request on this stream"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestStreamableHTTPJSONResponseOption(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{JSONResponse: true}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"t"}}}`, nil)
	msgs := readMessages(t, resp)
	if !isMediaType(resp.Header.Get("Content-Type"), mediaJSON) || len(msgs) != 1 || resultText(msgs[0]) != "done" {
		t.Fatalf("got %s %v", resp.Header.Get("Content-Type"), msgs)
	}
}

func TestStreamableHTTPStatelessLegacy(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{Stateless: true}, nil)
	c := &rawClient{t: t, url: ts.URL, version: Version20251125}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, nil)
	msgs := readMessages(t, resp)
	if resp.StatusCode != 200 || resp.Header.Get(headerSessionID) != "" || resultText(msgs[0]) != "x" {
		t.Fatalf("stateless call: %s sid=%q %v", resp.Status, resp.Header.Get(headerSessionID), msgs)
	}
	resp = c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping"}}`, nil)
	msgs = readMessages(t, resp)
	res, _ := msgs[0]["result"].(map[string]any)
	if res["isError"] != true || !strings.Contains(resultText(msgs[0]), "stateless") {
		t.Fatalf("server-to-client request in stateless mode: %v", msgs)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		resp = c.do(m, "", map[string]string{"Accept": "text/event-stream"})
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %s, want 405", m, resp.Status)
		}
	}
}

func TestStreamableHTTPSessionExpiry(t *testing.T) {
	server, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{SessionTimeout: 50 * time.Millisecond}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	waitUntil(t, func() bool { return len(slicesOf(server.Sessions())) == 0 })
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("request to an expired session: %s, want 404", resp.Status)
	}
}

func TestStreamableHTTPBusySession(t *testing.T) {
	_, h, ts, release := newHTTPTest(t, nil, &ServerOptions{MaxInFlight: 1})
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`, map[string]string{"Accept": "application/json, text/event-stream"})
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	resp := c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil)
	msgs := readMessages(t, resp)
	if resp.StatusCode != http.StatusTooManyRequests || len(msgs) != 1 || msgs[0]["id"] != float64(3) {
		t.Fatalf("second request while one is in flight: %s %v", resp.Status, msgs)
	}
	close(release)
	msgs = readMessages(t, <-first)
	if resultText(msgs[len(msgs)-1]) != "released" {
		t.Fatalf("first request: %v", msgs)
	}
}

func TestStreamableHTTPDuplicateRequestID(t *testing.T) {
	_, h, ts, release := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	resp := c.post(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, nil)
	msgs := readMessages(t, resp)
	if resp.StatusCode != http.StatusBadRequest || errorCode(msgs[0]) != CodeInvalidRequest {
		t.Fatalf("duplicate id: %s %v", resp.Status, msgs)
	}
	close(release)
	readMessages(t, <-first)
}

func TestStreamableHTTPCancelledNotification(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	resp := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %s", resp.Status)
	}
	msgs := readMessages(t, <-first)
	if len(msgs) != 1 || errorCode(msgs[0]) == 0 {
		t.Fatalf("cancelled call answered %v, want an error", msgs)
	}
}

func TestStreamableHTTPRequestContextReachesHandlers(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	t.Run("legacy", func(t *testing.T) {
		c := &rawClient{t: t, url: ts.URL}
		c.initialize(Version20251125)
		resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`, map[string]string{"X-User": "ada"})
		if msgs := readMessages(t, resp); resultText(msgs[0]) != "ada/from-middleware" {
			t.Fatalf("got %v", msgs)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		c := &rawClient{t: t, url: ts.URL}
		hdr := modernHeaders(MethodCallTool, "whoami")
		hdr["X-User"] = "grace"
		resp := c.post(modernCall(1, MethodCallTool, `"name":"whoami"`), hdr)
		if msgs := readMessages(t, resp); resultText(msgs[0]) != "grace/from-middleware" {
			t.Fatalf("got %v", msgs)
		}
	})
}

func TestStreamableHTTPClientDisconnectsMidStream(t *testing.T) {
	_, h, ts, release := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	// The client goes away while "wait" runs; the legacy handler goes on
	// (a disconnect is not a cancellation) and its response is dropped.
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(headerSessionID, c.sid)
	ctx, cancel := context.WithCancel(t.Context())
	req = req.WithContext(ctx)
	go func() {
		sess := waitSession(t, h, c.sid)
		waitUntil(t, func() bool { return inFlight(sess) == 1 })
		cancel()
	}()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("request survived its cancellation")
	}
	close(release)
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 0 })
	// The session still serves other requests.
	resp := c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`, nil)
	if msgs := readMessages(t, resp); resultText(msgs[0]) != "still here" {
		t.Fatalf("after a disconnect: %v", msgs)
	}
}

func TestStreamableHTTPShutdownDrains(t *testing.T) {
	_, h, ts, release := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream"})
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	closed := make(chan error, 1)
	go func() { closed <- h.Shutdown(context.Background()) }()
	waitUntil(t, h.closing.Load)
	// New requests are refused while the call in progress finishes.
	resp := c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "shutting down") {
		t.Errorf("request during Shutdown: %s %s, want 503 with a reason", resp.Status, body)
	}
	if !standaloneAttached(sess) {
		t.Error("the GET stream ended before the call in progress")
	}
	close(release)
	if msgs := readMessages(t, <-first); resultText(msgs[len(msgs)-1]) != "released" {
		t.Errorf("call in progress at Shutdown: %v", msgs)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	readMessages(t, get) // the GET stream ended
	if n := h.Stats().Sessions; n != 0 {
		t.Errorf("%d sessions after Shutdown", n)
	}
}

func TestStreamableHTTPShutdownDeadline(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := h.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown with a call that does not end: %v, want the context's error", err)
	}
	// The call was cancelled when ctx ended.
	if msgs := readMessages(t, <-first); errorCode(msgs[len(msgs)-1]) != CodeInternalError {
		t.Errorf("call cut by Shutdown: %v", msgs)
	}
}

func TestStreamableHTTPCloseIsImmediate(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	first := make(chan *http.Response, 1)
	go func() {
		first <- c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return inFlight(sess) == 1 })
	start := time.Now()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v", d)
	}
	if msgs := readMessages(t, <-first); errorCode(msgs[len(msgs)-1]) != CodeInternalError {
		t.Errorf("call cancelled by Close: %v", msgs)
	}
}

// waitSession returns the handler's session sid once it exists.
func waitSession(t testing.TB, h *StreamableHTTPHandler, sid string) *httpSession {
	t.Helper()
	var sess *httpSession
	waitUntil(t, func() bool { sess = h.session(sid); return sess != nil })
	return sess
}

// inFlight returns the number of requests the session is handling.
func inFlight(sess *httpSession) int {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return len(sess.incoming)
}

// standaloneAttached reports whether a GET stream is connected.
func standaloneAttached(sess *httpSession) bool {
	sess.mu.Lock()
	st := sess.standalone
	sess.mu.Unlock()
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.attachedLocked()
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
