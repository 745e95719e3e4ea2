package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// fakeOAuth is an MCP server at /mcp protected by an authorization server
// on the same host: Protected Resource Metadata, authorization server
// metadata, dynamic registration, an authorization endpoint that
// redirects at once, and a token endpoint issuing "token-N".
type fakeOAuth struct {
	srv    *httptest.Server
	mu     sync.Mutex
	issued map[string]bool
	n      int
}

func newFakeOAuth(t *testing.T) *fakeOAuth {
	f := &fakeOAuth{issued: map[string]bool{}}
	server := mcp.NewServer("protected", "1.0.0", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "secret", Description: "d", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("the secret")}}, nil
		},
	})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	t.Cleanup(func() { mcpHandler.Close() })
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		f.mu.Lock()
		ok := f.issued[tok]
		f.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+f.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"resource": f.srv.URL + "/mcp", "authorization_servers": []string{f.srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{
			"issuer": f.srv.URL, "authorization_endpoint": f.srv.URL + "/authorize", "token_endpoint": f.srv.URL + "/token",
			"registration_endpoint": f.srv.URL + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "grant_types_supported": []string{"authorization_code", "client_credentials"},
			"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_post", "client_secret_basic"},
			"authorization_response_iss_parameter_supported": true,
		})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		md["client_id"] = "registered-client"
		w.WriteHeader(http.StatusCreated)
		writeJSONBody(w, md)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back := q.Get("redirect_uri") + "?" + url.Values{"code": {"the-code"}, "state": {q.Get("state")}, "iss": {f.srv.URL}}.Encode()
		http.Redirect(w, r, back, http.StatusFound)
	})
	mux.HandleFunc("/token", f.token)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// token is the fake authorization server's token endpoint: it issues a
// new access token for the code "the-code" or the client svc/s3cret.
func (f *fakeOAuth) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		if r.Form.Get("code") != "the-code" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
	case "client_credentials":
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.Form.Get("client_id"), r.Form.Get("client_secret")
		}
		if id != "svc" || secret != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			writeJSONBody(w, map[string]any{"error": "invalid_client"})
			return
		}
	default:
		w.WriteHeader(http.StatusBadRequest)
		writeJSONBody(w, map[string]any{"error": "unsupported_grant_type"})
		return
	}
	f.mu.Lock()
	f.n++
	tok := "token-" + string(rune('0'+f.n))
	f.issued[tok] = true
	f.mu.Unlock()
	writeJSONBody(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// TestLogin logs in through the loopback redirect (a test browser follows
// the printed URL), then uses the stored token without prompting.
func TestLogin(t *testing.T) {
	f := newFakeOAuth(t)
	store := filepath.Join(t.TempDir(), "tokens.json")
	env, out, errw := testEnv(t, "", nil)
	browserDone := make(chan error, 1)
	go func() {
		// The browser: wait for the printed URL and follow it.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if i := strings.Index(errw.String(), f.srv.URL+"/authorize?"); i >= 0 {
				u := strings.Fields(errw.String()[i:])[0]
				resp, err := http.Get(u)
				if err == nil {
					resp.Body.Close()
				}
				browserDone <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		browserDone <- nil
	}()
	r := runIn(t, env, out, errw, "login", "--token-store", store, f.srv.URL+"/mcp")
	if err := <-browserDone; err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || !strings.Contains(r.stdout, "logged in to "+f.srv.URL+"/mcp") {
		t.Fatalf("login: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	tok, err := auth.NewFileTokenStore(store).Load(context.Background(), f.srv.URL+"/mcp")
	if err != nil || tok == nil || tok.AccessToken != "token-1" {
		t.Fatalf("stored token %+v, %v", tok, err)
	}
	r = runCLI(t, "call", "--no-interactive", "--token-store", store, f.srv.URL+"/mcp", "secret")
	if r.code != 0 || r.stdout != "the secret\n" {
		t.Fatalf("with the stored token: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestNoInteractiveNeedsLogin checks exit 3 without a stored token, at
// once rather than waiting for a person.
func TestNoInteractiveNeedsLogin(t *testing.T) {
	f := newFakeOAuth(t)
	start := time.Now()
	r := runCLI(t, "tools", "--no-interactive", "--token-store", filepath.Join(t.TempDir(), "tokens.json"), f.srv.URL+"/mcp")
	if r.code != exitAuthRequired || time.Since(start) > 10*time.Second {
		t.Fatalf("exit %d after %v, stderr %s", r.code, time.Since(start), r.stderr)
	}
	checkErrorLine(t, r, "auth_required")
}

// TestClientCredentials authorizes as a service with --client-credentials.
func TestClientCredentials(t *testing.T) {
	f := newFakeOAuth(t)
	store := filepath.Join(t.TempDir(), "tokens.json")
	env, out, errw := testEnv(t, "", map[string]string{"GOMCP_CLIENT_SECRET": "s3cret"})
	r := runIn(t, env, out, errw, "call", "--client-credentials", "--client-id", "svc", "--token-store", store, f.srv.URL+"/mcp", "secret")
	if r.code != 0 || r.stdout != "the secret\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "s3cret") {
		t.Fatal("the secret was printed")
	}
	r = runCLI(t, "call", "--client-credentials", "--client-id", "svc", "--client-secret", "wrong", "--token-store", filepath.Join(t.TempDir(), "t.json"), f.srv.URL+"/mcp", "secret")
	if r.code != exitAuthRequired {
		t.Fatalf("wrong secret: exit %d, stderr %s", r.code, r.stderr)
	}
	r = runCLI(t, "call", "--client-credentials", f.srv.URL+"/mcp", "secret")
	if r.code != exitUsage {
		t.Fatalf("--client-credentials without credentials: exit %d", r.code)
	}
}
