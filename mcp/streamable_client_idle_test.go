package mcp

import (
	"context"
	"net/http"
	"runtime"
	"testing"
)

// TestStreamableClientIdleSessionHasNoGoroutine checks that an idle
// 2026-07-28 client session over streamable HTTP runs no goroutine: its
// connection delivers what it reads itself (a jsonrpc2.PushStream).
func TestStreamableClientIdleSessionHasNoGoroutine(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	transport := &http.Transport{}
	httpClient := &http.Client{Transport: transport}
	client := NewClient("c", "v1", nil)
	ctx := context.Background()
	// Warm up: the first session starts the HTTP machinery.
	first, err := client.Connect(ctx, NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient}))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	transport.CloseIdleConnections()
	before := runtime.NumGoroutine()
	const n = 20
	var sessions []*ClientSession
	for range n {
		cs, err := client.Connect(ctx, NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient}))
		if err != nil {
			t.Fatal(err)
		}
		if cs.ProtocolVersion() != Version20260728 {
			t.Fatalf("negotiated %s", cs.ProtocolVersion())
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, cs)
	}
	transport.CloseIdleConnections()
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
	for _, cs := range sessions {
		if err := cs.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
