package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// One server answers clients of every era over HTTP.
func TestEras(t *testing.T) {
	h, mux := newHandlers(newServer())
	ts := httptest.NewServer(mux)
	defer ts.Close()
	defer h.Close()

	sse, err := mcp.NewSSEClientTransport(ts.URL+"/sse", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		protocol  string
		transport mcp.Transport
		agent     string
	}{
		{"", mcp.NewStreamableClientTransport(ts.URL+"/mcp", nil), "Go-http-client/1.1"},
		{mcp.Version20251125, mcp.NewStreamableClientTransport(ts.URL+"/mcp", nil), "Go-http-client/1.1"},
		{mcp.Version20250326, mcp.NewStreamableClientTransport(ts.URL+"/mcp", nil), "Go-http-client/1.1"},
		{mcp.Version20241105, sse, "unknown"},
	}
	for _, tt := range tests {
		ctx := context.Background()
		cs, err := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: tt.protocol}).Connect(ctx, tt.transport)
		if err != nil {
			t.Fatalf("%q: %v", tt.protocol, err)
		}
		res, err := cs.CallTool(ctx, "whoami", nil, nil)
		cs.Close()
		if err != nil {
			t.Fatalf("%q: %v", tt.protocol, err)
		}
		want := "protocol " + cs.ProtocolVersion() + ", user agent " + tt.agent
		if tt.protocol == "" && cs.ProtocolVersion() != mcp.Version20260728 {
			t.Errorf("default client negotiated %s", cs.ProtocolVersion())
		}
		if got := res.Content[0].Text; got != want {
			t.Errorf("%q: %q, want %q", tt.protocol, got, want)
		}
	}
}

// A request whose Host is not allowed is refused (DNS-rebinding defence).
func TestHostCheck(t *testing.T) {
	h, mux := newHandlers(newServer())
	defer h.Close()
	// docs:region hostcheck
	req := httptest.NewRequest("POST", "http://evil.example.net/mcp", strings.NewReader(`{}`))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("status = %d, want 403", rec.Code)
	}
	// docs:endregion
}

// run serves until its context is cancelled, and then returns nil.
func TestRun(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, addr) }()
	var cs *mcp.ClientSession
	for range 100 {
		cs, err = mcp.NewClient("test", "v1", nil).Connect(ctx, mcp.NewStreamableClientTransport("http://"+addr+"/mcp", nil))
		if err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	cs.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

// /stats reports the legacy sessions the handler holds.
func TestStats(t *testing.T) {
	h, mux := newHandlers(newServer())
	ts := httptest.NewServer(mux)
	defer ts.Close()
	defer h.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}).
		Connect(ctx, mcp.NewStreamableClientTransport(ts.URL+"/mcp", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	resp, err := http.Get(ts.URL + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var stats mcp.StreamableHTTPStats
	if err := json.NewDecoder(resp.Body).Decode(&stats); err != nil {
		t.Fatal(err)
	}
	if stats.Sessions != 1 {
		t.Errorf("stats = %+v, want 1 session", stats)
	}
}

// The server card names both endpoints with the server's own identity,
// and the catalog lists it.
func TestServerCard(t *testing.T) {
	server := newServer()
	h, mux := newHandlers(server)
	defer h.Close()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	if err := addServerCard(mux, server, ts.URL); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := servercard.Discover(ctx, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cards) != 1 || d.Cards[0].Err != nil {
		t.Fatalf("discovered %+v", d.Cards)
	}
	card := d.Cards[0].Card.Card
	if card.Name != "com.example/whoami" || card.Version != "v1.0.0" || len(card.Remotes) != 2 ||
		card.Remotes[0].URL != ts.URL+"/mcp" || card.Remotes[1].URL != ts.URL+"/sse" {
		t.Fatalf("card %+v", card)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, mcp.NewStreamableClientTransport(card.Remotes[0].URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if c := servercard.Contradictions(card, cs); len(c) != 0 {
		t.Fatalf("the card contradicts the server: %q", c)
	}
}

// The card names a host clients can reach, also when the server listens
// on every interface.
func TestPublicBase(t *testing.T) {
	for addr, want := range map[string]string{
		"localhost:8080": "http://localhost:8080",
		"127.0.0.1:0":    "http://127.0.0.1:0",
		":8080":          "http://localhost:8080",
		"0.0.0.0:8080":   "http://localhost:8080",
		"[::]:8080":      "http://localhost:8080",
		"[::1]:8080":     "http://[::1]:8080",
	} {
		if got := publicBase(addr); got != want {
			t.Errorf("publicBase(%q) = %q, want %q", addr, got, want)
		}
	}
}
