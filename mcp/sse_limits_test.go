package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// sseSession connects a 2024-11-05 client over the handler.
func sseSession(t *testing.T, url string) (*ClientSession, error) {
	t.Helper()
	ct, err := NewSSEClientTransport(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20241105}).Connect(context.Background(), ct)
}

func TestSSEMaxSessions(t *testing.T) {
	server := NewServer("sse-test", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, &SSEOptions{MaxSessions: 1})
	ts := httptest.NewServer(h)
	defer ts.Close()
	defer h.Close()
	cs, err := sseSession(t, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	if n := h.Stats().Sessions; n != 1 {
		t.Fatalf("Stats().Sessions = %d", n)
	}
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("GET beyond MaxSessions: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	cs.Close()
	waitUntil(t, func() bool { return h.Stats().Sessions == 0 })
	cs, err = sseSession(t, ts.URL)
	if err != nil {
		t.Fatalf("after a session ended: %v", err)
	}
	cs.Close()
}

func TestSSEShutdownDrains(t *testing.T) {
	release := make(chan struct{})
	server := NewServer("sse-test", "v1", nil)
	server.AddTools(httpTestTools(release)...)
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	cs, err := sseSession(t, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	result := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), "wait", nil, nil)
		if err == nil && res.Content[0].Text != "released" {
			err = errors.New("unexpected result " + res.Content[0].Text)
		}
		result <- err
	}()
	waitUntil(t, func() bool { return h.Stats().Calls == 1 })
	done := make(chan error, 1)
	go func() { done <- h.Shutdown(context.Background()) }()
	// New sessions are refused while the call finishes.
	waitUntil(t, func() bool {
		resp, err := http.Get(ts.URL)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusServiceUnavailable
	})
	select {
	case err := <-done:
		t.Fatalf("Shutdown returned (%v) with a call in progress", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-result; err != nil {
		t.Fatalf("call in progress at Shutdown: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := h.Stats().Sessions; n != 0 {
		t.Errorf("%d sessions after Shutdown", n)
	}
}

func TestSSEShutdownDeadline(t *testing.T) {
	server := NewServer("sse-test", "v1", nil)
	server.AddTools(httpTestTools(make(chan struct{}))...)
	h := NewSSEHTTPHandler(func(*http.Request) *Server { return server }, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	cs, err := sseSession(t, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go cs.CallTool(context.Background(), "wait", nil, nil)
	waitUntil(t, func() bool { return h.Stats().Calls == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := h.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v, want the context's error", err)
	}
	waitUntil(t, func() bool { return h.Stats().Sessions == 0 })
}
