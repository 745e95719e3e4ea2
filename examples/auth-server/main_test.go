package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gomcp/sdk/mcp"
)

// testAS is an authorization server for the test: RFC 8414 metadata, a
// JWKS, and ES256 access tokens it mints directly (no login).
type testAS struct {
	*httptest.Server
	key *ecdsa.PrivateKey
}

func newTestAS(t *testing.T) *testAS {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as := &testAS{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": as.URL, "jwks_uri": as.URL + "/jwks",
			"authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: key.Public(), KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	})
	as.Server = httptest.NewServer(mux)
	t.Cleanup(as.Close)
	return as
}

// mint returns an access token for sub with scope, meant for audience.
func (as *testAS) mint(t *testing.T, sub, scope, audience string) string {
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: as.key}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	payload, _ := json.Marshal(map[string]any{"iss": as.URL, "sub": sub, "aud": audience, "scope": scope,
		"client_id": "test-client", "iat": now, "exp": now + 300})
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := jws.CompactSerialize()
	return tok
}

// startServer serves the example on a free port and returns its resource
// URL.
func startServer(t *testing.T, issuer string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resource := "http://" + ln.Addr().String() + "/mcp"
	h, closeMCP, err := newHandler(&config{issuer: issuer, resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { closeMCP(); srv.Close() })
	return resource
}

func connect(t *testing.T, resource, token string, legacy bool) *mcp.ClientSession {
	t.Helper()
	var co *mcp.ClientOptions
	if legacy {
		co = &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}
	}
	tr := mcp.NewStreamableClientTransport(resource, &mcp.StreamableClientTransportOptions{Header: http.Header{"Authorization": {"Bearer " + token}}})
	cs, err := mcp.NewClient("test", "v1", co).Connect(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestEndToEnd runs the example against an authorization server: the
// discovery documents, the challenges, and both tools in both eras.
func TestEndToEnd(t *testing.T) {
	as := newTestAS(t)
	resource := startServer(t, as.URL)
	origin := strings.TrimSuffix(resource, "/mcp")
	prmURL := origin + "/.well-known/oauth-protected-resource/mcp"

	// Without a token: 401 naming the metadata document.
	resp, err := http.Post(resource, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `resource_metadata="`+prmURL+`"`) {
		t.Fatalf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// The metadata document, at the path-aware and the root URL.
	for _, u := range []string{prmURL, origin + "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		var md struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		json.NewDecoder(resp.Body).Decode(&md)
		resp.Body.Close()
		if md.Resource != resource || len(md.AuthorizationServers) != 1 || md.AuthorizationServers[0] != as.URL {
			t.Errorf("%s: %+v", u, md)
		}
	}

	ctx := context.Background()
	basic := as.mint(t, "alice", "", resource)
	profile := as.mint(t, "alice", "profile:read", resource)
	for _, legacy := range []bool{false, true} {
		cs := connect(t, resource, basic, legacy)
		res, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, nil)
		if err != nil || res.Content[0].Text != "Hi Ada" {
			t.Fatalf("legacy=%v greet: %v %+v", legacy, err, res)
		}
		if _, err := cs.CallTool(ctx, "whoami", nil, nil); err == nil {
			t.Errorf("legacy=%v: whoami ran without profile:read", legacy)
		}
		cs = connect(t, resource, profile, legacy)
		res, err = cs.CallTool(ctx, "whoami", nil, nil)
		if err != nil || res.Content[0].Text != "alice" {
			t.Fatalf("legacy=%v whoami: %v %+v", legacy, err, res)
		}
	}

	// The 403 a client steps up from, on the wire (2026-07-28 headers).
	req, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+basic)
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "whoami")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if wa := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusForbidden ||
		!strings.Contains(wa, `error="insufficient_scope"`) || !strings.Contains(wa, `scope="profile:read"`) {
		t.Errorf("step-up challenge: %d %q", resp.StatusCode, wa)
	}

	// Tokens for another resource, or from another issuer, are refused.
	other := newTestAS(t)
	for name, tok := range map[string]string{
		"other audience": as.mint(t, "alice", "profile:read", "https://other.example.com/mcp"),
		"other issuer":   other.mint(t, "alice", "profile:read", resource),
	} {
		req, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "invalid_token") {
			t.Errorf("%s: %d %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// TestFlags runs the command: -issuer is required; with it, the server
// serves until its context ends.
func TestFlags(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"-http", "127.0.0.1:0"}, &out); err == nil {
		t.Error("ran without -issuer")
	}
	as := newTestAS(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-http", addr, "-issuer", as.URL}, io.Discard) }()
	resource := "http://" + addr + "/mcp"
	var resp *http.Response
	for range 100 {
		if resp, err = http.Post(resource, "application/json", strings.NewReader(`{}`)); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !strings.Contains(resp.Header.Get("WWW-Authenticate"), "http://"+addr+"/.well-known/oauth-protected-resource/mcp") {
		t.Errorf("default -resource: %q", resp.Header.Get("WWW-Authenticate"))
	}
	cs := connect(t, resource, as.mint(t, "bob", "profile:read", resource), false)
	if res, err := cs.CallTool(context.Background(), "whoami", nil, nil); err != nil || res.Content[0].Text != "bob" {
		t.Errorf("whoami: %v", err)
	}
	cs.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}
