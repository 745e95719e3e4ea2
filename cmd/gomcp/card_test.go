package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// cardHost serves a weather server's card at /mcp/server-card, a catalog
// listing it and a missing card at /.well-known/ai-catalog.json, and
// broken documents at /bad/*.
func cardHost(t *testing.T) *httptest.Server {
	t.Helper()
	server := mcp.NewServer("weather", "1.4.2", &mcp.ServerOptions{Title: "Weather", Description: "Forecasts and current conditions for any city"})
	card, err := servercard.FromServer(server, &servercard.Options{
		Namespace: "com.example",
		Remotes: []servercard.Remote{{
			Type: servercard.StreamableHTTP, URL: "https://mcp.example.com/mcp",
			Headers: []servercard.Header{{Name: "Authorization", Input: servercard.Input{IsRequired: true, Value: "Bearer {token}"},
				Variables: map[string]servercard.Input{"token": {IsSecret: true, IsRequired: true}}}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := servercard.NewCardHandler(card)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	entry, _ := servercard.EntryFor(card, ts.URL+"/mcp/server-card")
	gone := servercard.CatalogEntry{Identifier: "urn:air:example.com:mcp:gone", Type: servercard.MediaType, URL: ts.URL + "/gone/server-card"}
	catalog, err := servercard.NewCatalogHandler(&servercard.Catalog{Entries: []servercard.CatalogEntry{entry, gone}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp/server-card", h)
	mux.Handle(servercard.CatalogPath, catalog)
	mux.HandleFunc("/bad/schema/server-card", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", servercard.MediaType)
		w.Write([]byte(`{"$schema":"` + servercard.SchemaURL + `","name":"weather","version":"^1","description":"d"}`))
	})
	mux.HandleFunc("/bad/html/server-card", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html></html>`))
	})
	mux.HandleFunc("/bad/auth/server-card", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) })
	return ts
}

// compareCardGolden compares out, with the host's URL replaced by
// http://HOST, with testdata/golden/name; -update rewrites it.
func compareCardGolden(t *testing.T, name, out, host string) {
	t.Helper()
	out = strings.ReplaceAll(out, host, "http://HOST")
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, out, want)
	}
}

// gomcp card prints a card for people or as JSON, from the MCP URL or the
// card's, and reads a host's catalog with --catalog.
func TestCardGolden(t *testing.T) {
	ts := cardHost(t)
	tests := []struct {
		golden  string
		args    []string
		exit    int
		errCode string
	}{
		{"card.txt", []string{"card", ts.URL + "/mcp"}, exitOK, ""},
		{"card.json", []string{"card", "--json", ts.URL + "/mcp/server-card"}, exitOK, ""},
		{"card-catalog.txt", []string{"card", "--catalog", ts.URL}, exitCardMissing, "card_missing"},
		{"card-catalog.json", []string{"card", "--json", ts.URL + servercard.CatalogPath}, exitCardMissing, "card_missing"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tt.exit, r.stderr)
			}
			checkErrorLine(t, r, tt.errCode)
			compareCardGolden(t, tt.golden, r.stdout, ts.URL)
		})
	}
}

// Each failure has its exit code and error line.
func TestCardExitCodes(t *testing.T) {
	ts := cardHost(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		name    string
		args    []string
		exit    int
		errCode string
	}{
		{"missing", []string{"card", ts.URL + "/nowhere"}, exitCardMissing, "card_missing"},
		{"invalid", []string{"card", ts.URL + "/bad/schema"}, exitCardInvalid, "card_invalid"},
		{"not JSON", []string{"card", ts.URL + "/bad/html/server-card"}, exitCardInvalid, "card_invalid"},
		{"unauthorized", []string{"card", ts.URL + "/bad/auth"}, exitAuthRequired, "auth_required"},
		{"unreachable", []string{"card", closed + "/mcp"}, exitUnreachable, "unreachable"},
		{"plain http to a public host", []string{"card", "http://mcp.example.com/mcp"}, exitUsage, "url_refused"},
		{"no URL", []string{"card"}, exitUsage, "usage"},
		{"two URLs", []string{"card", ts.URL, ts.URL}, exitUsage, "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tt.exit, r.stderr)
			}
			checkErrorLine(t, r, tt.errCode)
		})
	}
}

// The everything-server serves its card beside MCP, and it is valid.
func TestCardEverythingServer(t *testing.T) {
	r := runCLI(t, "card", everythingURL)
	if r.code != exitOK || !strings.Contains(r.stdout, "name:         io.github.gomcp/everything-server") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// --check connects to the card's endpoint and compares the live server
// with the card: the everything-server agrees with its own; a card that
// claims another version exits 7.
func TestCardCheck(t *testing.T) {
	r := runCLI(t, "card", "--check", everythingURL)
	if r.code != exitOK || !strings.Contains(r.stdout, "agrees with the card") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	server := mcp.NewServer("weather", "1.4.2", &mcp.ServerOptions{Description: "Forecasts"})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	defer mcpHandler.Close()
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	stale := &servercard.Card{Schema: servercard.SchemaURL, Name: "com.example/weather", Version: "1.3.0", Description: "Forecasts",
		Remotes: []servercard.Remote{{Type: servercard.StreamableHTTP, URL: ts.URL + "/mcp"}}}
	h, err := servercard.NewCardHandler(stale)
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", mcpHandler)
	mux.Handle("/mcp/server-card", h)
	r = runCLI(t, "card", "--check", ts.URL+"/mcp")
	if r.code != exitCardInvalid || !strings.Contains(r.stderr, "version") {
		t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitCardInvalid, r.stderr)
	}
	checkErrorLine(t, r, "card_contradicts")
	if r := runCLI(t, "card", "--check", "--catalog", ts.URL); r.code != exitUsage {
		t.Fatalf("--check with --catalog: exit %d, want %d", r.code, exitUsage)
	}
}
