package auth

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestProtectedResourceMetadataURL(t *testing.T) {
	for _, tt := range []struct{ resource, url, path string }{
		{"https://example.com/mcp", "https://example.com/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource/mcp"},
		{"https://example.com/public/mcp", "https://example.com/.well-known/oauth-protected-resource/public/mcp", "/.well-known/oauth-protected-resource/public/mcp"},
		{"https://example.com", "https://example.com/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource"},
		{"https://example.com/", "https://example.com/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource"},
		{"HTTPS://Example.COM:443/mcp", "https://example.com/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource/mcp"},
		{"http://localhost:8080/mcp", "http://localhost:8080/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource/mcp"},
	} {
		got, err := ProtectedResourceMetadataURL(tt.resource)
		if err != nil || got != tt.url {
			t.Errorf("URL(%q) = %q, %v; want %q", tt.resource, got, err, tt.url)
		}
		p, err := ProtectedResourceMetadataPath(tt.resource)
		if err != nil || p != tt.path {
			t.Errorf("Path(%q) = %q, %v; want %q", tt.resource, p, err, tt.path)
		}
	}
	for _, bad := range []string{"example.com/mcp", "https://example.com/mcp#frag", "/mcp", "https://example.com/mcp?x=1"} {
		if _, err := ProtectedResourceMetadataURL(bad); err == nil {
			t.Errorf("URL(%q) accepted", bad)
		}
	}
}

// TestProtectedResourceMetadataHandler requests the document with every
// HTTP method.
func TestProtectedResourceMetadataHandler(t *testing.T) {
	if _, err := ProtectedResourceMetadataHandler(&ProtectedResourceMetadata{Resource: "https://example.com/mcp"}); err == nil {
		t.Error("metadata without authorization servers accepted")
	}
	h, err := ProtectedResourceMetadataHandler(&ProtectedResourceMetadata{
		Resource:             "https://example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
		ScopesSupported:      []string{"mcp:basic"},
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/.well-known/oauth-protected-resource/mcp", h)
	mux.Handle("/.well-known/oauth-protected-resource", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		for _, method := range []string{"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"} {
			req, _ := http.NewRequest(method, ts.URL+path, nil)
			req.Header.Set("Origin", "https://app.example.org")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("%s %s: not CORS-readable", method, path)
			}
			switch method {
			case "GET", "HEAD":
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
					t.Errorf("%s: %d %q", method, resp.StatusCode, resp.Header.Get("Content-Type"))
				}
				if method == "HEAD" {
					if len(body) != 0 {
						t.Error("HEAD has a body")
					}
					continue
				}
				var md map[string]any
				if err := json.Unmarshal(body, &md); err != nil {
					t.Fatal(err)
				}
				if md["resource"] != "https://example.com/mcp" || md["authorization_servers"].([]any)[0] != "https://auth.example.com" ||
					md["scopes_supported"].([]any)[0] != "mcp:basic" || md["bearer_methods_supported"].([]any)[0] != "header" {
					t.Errorf("document %s", body)
				}
			case "OPTIONS":
				if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Methods") == "" {
					t.Errorf("OPTIONS: %d %v", resp.StatusCode, resp.Header)
				}
			default:
				if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
					t.Errorf("%s: %d Allow %q", method, resp.StatusCode, resp.Header.Get("Allow"))
				}
			}
		}
	}
}

func TestCanonicalResourceURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://MCP.Example.com":       "https://mcp.example.com",
		"https://mcp.example.com/":      "https://mcp.example.com",
		"https://mcp.example.com:8443":  "https://mcp.example.com:8443",
		"http://mcp.example.com:80/mcp": "http://mcp.example.com/mcp",
		"https://[::1]:443/mcp":         "https://[::1]/mcp",
	} {
		if got, err := CanonicalResourceURL(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"mcp.example.com", "https://mcp.example.com#fragment", "https://user@mcp.example.com"} {
		if _, err := CanonicalResourceURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestResourceMetadataURLDefault(t *testing.T) {
	h := mustProtect(t, testTokens, &RequireBearerTokenOptions{Resource: "https://mcp.example.com/mcp"})(http.NotFoundHandler())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", nil))
	if got := rec.Header().Get("WWW-Authenticate"); got != `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"` {
		t.Errorf("challenge %q", got)
	}
}
