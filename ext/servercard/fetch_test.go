package servercard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serveCard serves h at /mcp/server-card and returns the server's URL.
func serveCard(t *testing.T, h http.Handler) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp/server-card", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL
}

// Fetch reads a served card with the card's Accept header, validates it,
// and keeps its ETag and max-age; with the ETag it gets NotModified.
func TestFetch(t *testing.T) {
	h := weatherHandler(t)
	var accept []string
	base := serveCard(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept = append(accept, r.Header.Get("Accept"))
		h.ServeHTTP(w, r)
	}))
	ctx := context.Background()
	f, err := Fetch(ctx, URLFor(base+"/mcp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Card.Name != "com.example/weather" || f.ETag != h.ETag() || f.MaxAge != time.Hour || f.NotModified || len(f.Warnings) != 0 {
		t.Fatalf("fetched %+v", f)
	}
	if string(f.Raw) != string(h.Body()) {
		t.Fatalf("raw %s", f.Raw)
	}
	again, err := Fetch(ctx, f.URL, &FetchOptions{IfNoneMatch: f.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if !again.NotModified || again.Card != nil || again.ETag != f.ETag {
		t.Fatalf("revalidated %+v", again)
	}
	if len(accept) != 2 || !strings.HasPrefix(accept[0], MediaType) {
		t.Fatalf("Accept headers %q, want the card's media type first", accept)
	}
}

// Each way a fetch fails gives the sentinel a caller tests.
func TestFetchErrors(t *testing.T) {
	valid := weatherHandler(t).Body()
	respond := func(status int, contentType string, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if contentType != "" {
				w.Header().Set("Content-Type", contentType)
			}
			w.WriteHeader(status)
			w.Write(body)
		}
	}
	big := append([]byte(`{"x":"`), append([]byte(strings.Repeat("a", DefaultMaxCardBytes)), `"}`...)...)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    error
	}{
		{"404", respond(404, "text/plain", []byte("no")), ErrNotFound},
		{"410", respond(410, "", nil), ErrNotFound},
		{"500", respond(500, "", nil), ErrStatus},
		{"401", respond(401, "", nil), ErrStatus},
		{"304 unasked", respond(304, "", nil), ErrStatus},
		{"html", respond(200, "text/html; charset=utf-8", []byte("<html></html>")), ErrMediaType},
		{"no content type", func(w http.ResponseWriter, r *http.Request) { w.Header()["Content-Type"] = nil; w.Write(valid) }, ErrMediaType},
		{"too large, announced", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", MediaType)
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			w.Write(big)
		}, ErrTooLarge},
		{"too large, chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", MediaType)
			w.Write(big[:len(big)/2])
			w.(http.Flusher).Flush()
			w.Write(big[len(big)/2:])
		}, ErrTooLarge},
		{"not a card", respond(200, MediaType, []byte(`{"protocolVersion":"2025-06-18","serverInfo":{"name":"x"}}`)), ErrInvalid},
		{"not JSON", respond(200, "application/json", []byte(`{`)), ErrInvalid},
		{"redirect to another host", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.example.net/card", http.StatusFound)
		}, ErrRedirect},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := serveCard(t, tt.handler)
			_, err := Fetch(context.Background(), base+"/mcp/server-card", nil)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// The media types a client accepts: the card's, the one it had before
// June 2026, and plain JSON, with parameters.
func TestFetchMediaTypes(t *testing.T) {
	body := weatherHandler(t).Body()
	for _, ct := range []string{MediaType, LegacyMediaType, "application/json", "application/json; charset=utf-8", "Application/MCP-Server-Card+JSON"} {
		base := serveCard(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Write(body)
		}))
		if _, err := Fetch(context.Background(), base+"/mcp/server-card", nil); err != nil {
			t.Errorf("%s: %v", ct, err)
		}
	}
}

// A status error carries the URL and the code.
func TestFetchStatusError(t *testing.T) {
	base := serveCard(t, http.NotFoundHandler())
	_, err := Fetch(context.Background(), base+"/mcp/server-card", nil)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 404 || se.URL != base+"/mcp/server-card" || errors.Is(err, ErrStatus) {
		t.Fatalf("err = %#v", err)
	}
}

// Redirects on the same host are followed; to another host, from https
// to http, or too many, are not.
func TestFetchRedirects(t *testing.T) {
	h := weatherHandler(t)
	mux := http.NewServeMux()
	mux.Handle("/mcp/server-card", h)
	mux.Handle("/old/server-card", http.RedirectHandler("/mcp/server-card", http.StatusMovedPermanently))
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	ts := httptest.NewServer(mux)
	defer ts.Close()
	f, err := Fetch(context.Background(), ts.URL+"/old/server-card", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.URL != ts.URL+"/mcp/server-card" {
		t.Fatalf("read from %s", f.URL)
	}
	if _, err := Fetch(context.Background(), ts.URL+"/loop", nil); !errors.Is(err, ErrRedirect) {
		t.Fatalf("redirect loop: err = %v, want ErrRedirect", err)
	}
	other := httptest.NewServer(http.RedirectHandler(ts.URL+"/mcp/server-card", http.StatusFound))
	defer other.Close()
	// Another port is another host.
	if _, err := Fetch(context.Background(), other.URL+"/x", nil); !errors.Is(err, ErrRedirect) {
		t.Fatalf("redirect to another host: err = %v, want ErrRedirect", err)
	}
}

// URLs that are not fetched are refused before any request.
func TestFetchRefusesURLs(t *testing.T) {
	for _, u := range []string{
		"ftp://example.com/card",
		"/mcp/server-card",
		"example.com/mcp/server-card",
		"https://user:secret@example.com/mcp/server-card",
		"http://mcp.example.com/mcp/server-card",
		"http://10.0.0.1/mcp/server-card",
		"::",
	} {
		if _, err := Fetch(context.Background(), u, nil); !errors.Is(err, ErrURL) {
			t.Errorf("%s: err = %v, want ErrURL", u, err)
		}
	}
}

// A host that does not answer in time ends the fetch with the timeout.
func TestFetchTimeout(t *testing.T) {
	release := make(chan struct{})
	base := serveCard(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer close(release)
	_, err := Fetch(context.Background(), base+"/mcp/server-card", &FetchOptions{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline", err)
	}
}

// Cache-Control's max-age, or none.
func TestMaxAge(t *testing.T) {
	tests := []struct {
		header string
		want   time.Duration
	}{
		{"public, max-age=3600", time.Hour},
		{"max-age=60", time.Minute},
		{"no-store", 0},
		{"max-age=60, no-cache", 0},
		{"max-age=-1", 0},
		{"max-age=abc", 0},
		{"", 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != "" {
			h.Set("Cache-Control", tt.header)
		}
		if got := maxAge(h); got != tt.want {
			t.Errorf("maxAge(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
