package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func newSSETest(t *testing.T) (*Server, *SSEHTTPHandler, *httptest.Server) {
	t.Helper()
	server := NewServer("sse-test", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.Close() })
	return server, h, ts
}

func TestSSETransportEndToEnd(t *testing.T) {
	server, _, ts := newSSETest(t)
	ct, err := NewSSEClientTransport(ts.URL+"/sse", nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20241105}).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), "echo", map[string]string{"text": "over sse"}, nil)
	if err != nil || res.Content[0].Text != "over sse" {
		t.Fatalf("echo: %v %v", res, err)
	}
	var ss *ServerSession
	waitUntil(t, func() bool {
		s := slicesOf(server.Sessions())
		if len(s) == 1 {
			ss = s[0]
		}
		return ss != nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ss.Ping(ctx, nil); err != nil {
		t.Fatalf("server-to-client ping: %v", err)
	}
	cs.Close()
	waitUntil(t, func() bool { return len(slicesOf(server.Sessions())) == 0 })
}

func TestSSEHandlerWire(t *testing.T) {
	_, _, ts := newSSETest(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/sse", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body, 0)
	ev, err := r.Next()
	if err != nil || ev.Name != "endpoint" || !strings.HasPrefix(string(ev.Data), "/sse?sessionId=") {
		t.Fatalf("first event %+v %q, %v", ev, ev.Data, err)
	}
	endpoint := ts.URL + string(ev.Data)
	post := func(body, ct string) int {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, "application/json"); s != http.StatusAccepted {
		t.Fatalf("POST initialize: %d, want 202", s)
	}
	ev, err = r.Next()
	if err != nil || ev.Name != "message" || !strings.Contains(string(ev.Data), `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize response %q %v", ev.Data, err)
	}
	for _, tt := range []struct {
		body, ct string
		status   int
	}{
		{`{"jsonrpc":"2.0"`, "application/json", 400},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "text/plain", 415},
	} {
		if s := post(tt.body, tt.ct); s != tt.status {
			t.Errorf("POST %s as %s: %d, want %d", tt.body, tt.ct, s, tt.status)
		}
	}
	// Unknown session.
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/sse?sessionId=nope", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 404 {
		t.Fatalf("unknown session: %v %v", resp, err)
	}
	// A foreign Host is refused.
	req, _ = http.NewRequest(http.MethodGet, ts.URL+"/sse", nil)
	req.Host = "evil.example.com"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Fatalf("foreign host: %v %v", resp, err)
	}
}

func TestSSEClientRejectsForeignEndpoint(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: endpoint\ndata: http://evil.example.com/steal\n\n"))
	}))
	defer ts.Close()
	ct, _ := NewSSEClientTransport(ts.URL, nil)
	if _, err := ct.Connect(context.Background()); err == nil || !strings.Contains(err.Error(), "origin") {
		t.Fatalf("foreign endpoint accepted: %v", err)
	}
}

func TestSSEClientConnectTimeout(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never sends the endpoint
	}))
	defer ts.Close()
	ct, _ := NewSSEClientTransport(ts.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := ct.Connect(ctx); err == nil {
		t.Fatal("Connect returned without an endpoint")
	}
}
