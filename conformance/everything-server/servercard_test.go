package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// The server's card, at its MCP URL plus /server-card, and the catalog
// listing it are served beside MCP; the card agrees with the live server
// in both eras.
func TestServerCard(t *testing.T) {
	srv := newServer()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	defer mcpHandler.Close()
	var routes http.Handler
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { routes.ServeHTTP(w, r) }))
	defer ts.Close()
	var err error
	if routes, err = withServerCard(srv, ts.URL, mcpHandler); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	f, err := servercard.Fetch(ctx, servercard.URLFor(ts.URL+"/mcp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Card.Name != "io.github.gomcp/everything-server" || f.Card.Remotes[0].URL != ts.URL+"/mcp" || len(f.Warnings) != 0 {
		t.Fatalf("card %+v, warnings %q", f.Card, f.Warnings)
	}
	d, err := servercard.Discover(ctx, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cards) != 1 || d.Cards[0].Err != nil || d.Cards[0].Card.ETag != f.ETag {
		t.Fatalf("discovered %+v", d.Cards)
	}
	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		cs, err := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: version}).
			Connect(ctx, mcp.NewStreamableClientTransport(f.Card.Remotes[0].URL, nil))
		if err != nil {
			t.Fatal(err)
		}
		if c := servercard.Contradictions(f.Card, cs); len(c) != 0 {
			t.Errorf("%s: %q", version, c)
		}
		cs.Close()
	}
}

// The card names the host the -http flag gave, with the listener's port.
func TestPublicBase(t *testing.T) {
	ln := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}
	tests := []struct {
		flag, want string
	}{
		{"127.0.0.1:0", "http://127.0.0.1:41234"},
		{"localhost:3001", "http://localhost:41234"},
		{":3001", "http://localhost:41234"},
		{"0.0.0.0:3001", "http://localhost:41234"},
		{"[::1]:0", "http://[::1]:41234"},
	}
	for _, tt := range tests {
		got, err := publicBase(tt.flag, ln)
		if err != nil || got != tt.want {
			t.Errorf("publicBase(%q) = %q, %v; want %q", tt.flag, got, err, tt.want)
		}
	}
	if _, err := publicBase("nonsense", ln); err == nil {
		t.Error("publicBase accepted an address without a port")
	}
}
