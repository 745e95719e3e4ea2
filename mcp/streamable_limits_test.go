package mcp

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestStreamableHTTPNoGoroutineLeftAfter1000Sessions(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	before := runtime.NumGoroutine()
	for range 1000 {
		c := &rawClient{t: t, url: ts.URL}
		c.initialize(Version20251125)
		resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`, nil)
		readMessages(t, resp)
		req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
		req.Header.Set(headerSessionID, c.sid)
		del, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		del.Body.Close()
	}
	http.DefaultClient.CloseIdleConnections()
	tr.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after 1000 sessions:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(slicesOf(server.Sessions())); n != 0 {
		t.Errorf("server lists %d sessions", n)
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if len(h.sessions) != 0 {
		t.Errorf("handler holds %d sessions", len(h.sessions))
	}
}

// TestStreamableHTTPIdleSessionCost checks the budget: an idle
// legacy session costs the server at most 2 KiB and no goroutine.
func TestStreamableHTTPIdleSessionCost(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory of 1000 sessions")
	}
	server := NewServer("mem", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	defer h.Close()
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"mem-client","version":"1.0.0"}}}`
	open := func() {
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := &discardWriter{header: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			t.Fatalf("initialize: %d", w.status)
		}
	}
	open() // warm up pools and caches
	const n = 1000
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	g0 := runtime.NumGoroutine()
	for range n {
		open()
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	g1 := runtime.NumGoroutine()
	perSession := (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) / n
	t.Logf("idle legacy session: %d bytes, %d goroutines per 1000", perSession, g1-g0)
	if perSession > 2048 {
		t.Errorf("an idle session costs %d bytes, budget 2048", perSession)
	}
	if g1 > g0 {
		t.Errorf("%d goroutines for %d idle sessions, want none", g1-g0, n)
	}
	if got := len(slicesOf(server.Sessions())); got != n+1 {
		t.Fatalf("%d sessions, want %d", got, n+1)
	}
}

// discardWriter is an http.ResponseWriter that keeps only the status.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
func (w *discardWriter) WriteHeader(status int) { w.status = status }

func TestStreamableHTTPSlowReader(t *testing.T) {
	server, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{WriteTimeout: 100 * time.Millisecond}, nil)
	finished := make(chan error, 1)
	big := strings.Repeat("x", 1<<20)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "flood", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			var err error
			for range 64 {
				if err = ss.NotifyProgress(ctx, &ProgressNotificationParams{ProgressToken: "f", Progress: 1, Message: big}); err != nil {
					break
				}
			}
			finished <- err
			return &CallToolResult{}, nil
		},
	})
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood"}}`, nil)
	defer resp.Body.Close() // never read: a client that stopped reading
	select {
	case err := <-finished:
		if err == nil {
			t.Log("all notifications fitted in socket buffers")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler is stuck behind a client that does not read")
	}
	// Other clients are served meanwhile.
	other := &rawClient{t: t, url: ts.URL}
	other.initialize(Version20251125)
	r2 := other.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ok"}}}`, nil)
	if msgs := readMessages(t, r2); resultText(msgs[0]) != "ok" {
		t.Fatalf("other client: %v", msgs)
	}
}
