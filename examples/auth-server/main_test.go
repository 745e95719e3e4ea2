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
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/authtest"
	"github.com/gomcp/sdk/mcp"
)

// newIssuer starts a test authorization server (auth/authtest): its
// metadata, its key, and tokens minted without a login.
func newIssuer(t *testing.T) *authtest.Issuer {
	is := authtest.NewIssuer()
	t.Cleanup(is.Close)
	return is
}

// mint returns an access token of is for sub with scope, meant for
// audience.
func mint(is *authtest.Issuer, sub, scope, audience string) string {
	return is.Token(authtest.Claims{Subject: sub, Scopes: strings.Fields(scope), Audience: audience, ClientID: "test-client"})
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
	as := newIssuer(t)
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
	basic := mint(as, "alice", "", resource)
	profile := mint(as, "alice", "profile:read", resource)
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

	checkStepUpChallenge(t, resource, basic)

	// Tokens for another resource, or from another issuer, are refused.
	other := newIssuer(t)
	for name, tok := range map[string]string{
		"other audience": mint(as, "alice", "profile:read", "https://other.example.com/mcp"),
		"other issuer":   mint(other, "alice", "profile:read", resource),
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

// checkStepUpChallenge checks, on the wire with 2026-07-28 headers, that
// whoami called with token (which lacks profile:read) gets the 403
// insufficient_scope challenge a client steps up from.
func checkStepUpChallenge(t *testing.T, resource, token string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "whoami")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if wa := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusForbidden ||
		!strings.Contains(wa, `error="insufficient_scope"`) || !strings.Contains(wa, `scope="profile:read"`) {
		t.Errorf("step-up challenge: %d %q", resp.StatusCode, wa)
	}
}

// TestFlags runs the command: -issuer is required; with it, the server
// serves until its context ends.
func TestFlags(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"-http", "127.0.0.1:0"}, &out); err == nil {
		t.Error("ran without -issuer")
	}
	as := newIssuer(t)
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
	cs := connect(t, resource, mint(as, "bob", "profile:read", resource), false)
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

// dpopTransport sends each request with a DPoP-bound token and a fresh
// proof of its key, as a client of an authorization server that binds
// tokens does.
type dpopTransport struct {
	prover *auth.DPoPProver
	token  string
}

func (d *dpopTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	proof, err := d.prover.Proof(r.Method, r.URL.String(), d.token)
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "DPoP "+d.token)
	r.Header.Set("DPoP", proof)
	return http.DefaultTransport.RoundTrip(r)
}

// TestDPoPBoundTokens: the example accepts tokens bound to a key (cnf.jkt)
// presented with the DPoP scheme and a proof of that key, in both eras,
// and refuses them as bearer tokens or with another key's proof.
func TestDPoPBoundTokens(t *testing.T) {
	as := newIssuer(t)
	resource := startServer(t, as.URL)
	newProver := func() *auth.DPoPProver {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		p, err := auth.NewDPoPProver(key, "ES256")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	prover := newProver()
	token := as.Token(authtest.Claims{Subject: "carol", Audience: resource, Scopes: []string{"profile:read"}, JKT: prover.Thumbprint()})
	ctx := context.Background()
	for _, legacy := range []bool{false, true} {
		var co *mcp.ClientOptions
		if legacy {
			co = &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}
		}
		tr := mcp.NewStreamableClientTransport(resource, &mcp.StreamableClientTransportOptions{
			HTTPClient: &http.Client{Transport: &dpopTransport{prover: prover, token: token}},
		})
		cs, err := mcp.NewClient("test", "v1", co).Connect(ctx, tr)
		if err != nil {
			t.Fatalf("legacy=%v: connect with a DPoP-bound token: %v", legacy, err)
		}
		res, err := cs.CallTool(ctx, "whoami", nil, nil)
		if err != nil || res.Content[0].Text != "carol" {
			t.Errorf("legacy=%v whoami: %v %+v", legacy, err, res)
		}
		cs.Close()
	}

	// Refused: the bound token as a bearer token, a proof of another key,
	// and the DPoP scheme without a proof.
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	otherProof, _ := newProver().Proof(http.MethodPost, resource, token)
	for _, tc := range []struct {
		name, authorization, proof string
	}{
		{"as a bearer token", "Bearer " + token, ""},
		{"another key's proof", "DPoP " + token, otherProof},
		{"no proof", "DPoP " + token, ""},
	} {
		req, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", tc.authorization)
		if tc.proof != "" {
			req.Header.Set("DPoP", tc.proof)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", tc.name, resp.StatusCode)
		}
	}
}
