package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth/authtest"
	"github.com/gomcp/sdk/mcp"
)

// startProtected serves the demo module behind OAuth: tokens of a test
// authorization server, for the endpoint's URL, with the default scope.
// It returns the issuer, the endpoint's URL and the server's log.
func startProtected(t *testing.T, edit func(*teamConfig)) (*authtest.Issuer, string, *logSink) {
	t.Helper()
	is := authtest.NewIssuer()
	t.Cleanup(is.Close)
	sink := &logSink{}
	cfg := testTeamConfig(sink)
	ln := listen(t)
	cfg.issuer = is.URL
	cfg.resource = "http://" + ln.Addr().String() + "/mcp"
	if edit != nil {
		edit(&cfg)
	}
	_, url := startTeam(t, newDemoService(t, newDemoProxy(t, false)), cfg, ln)
	return is, url, sink
}

// mint returns an access token of is for subject with scopes, meant for
// audience.
func mint(is *authtest.Issuer, subject, scopes, audience string) string {
	return is.Token(authtest.Claims{Subject: subject, Scopes: strings.Fields(scopes), Audience: audience, ClientID: "agent"})
}

// TestTeamServerOAuth: with --issuer and --resource, the MCP endpoint
// wants a token for its URL that grants the scope; the metadata document
// says where to get one.
func TestTeamServerOAuth(t *testing.T) {
	is, url, _ := startProtected(t, nil)
	origin := strings.TrimSuffix(url, "/mcp")
	prm := origin + "/.well-known/oauth-protected-resource/mcp"
	tests := []struct {
		name       string
		token      string
		status     int
		challenges []string // in WWW-Authenticate
	}{
		{"no token", "", http.StatusUnauthorized, []string{`Bearer `, `resource_metadata="` + prm + `"`, `scope="pkgdocs:read"`}},
		{"token for another server", mint(is, "alice", "pkgdocs:read", "https://other.example.com/mcp"), http.StatusUnauthorized, []string{`error="invalid_token"`}},
		{"token without the scope", mint(is, "alice", "profile", url), http.StatusForbidden, []string{`error="insufficient_scope"`, `scope="pkgdocs:read"`, `resource_metadata="` + prm + `"`}},
		{"token with the scope", mint(is, "alice", "profile pkgdocs:read", url), http.StatusOK, nil},
	}
	for _, tt := range tests {
		resp, body := post(t, url, tt.token)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.name, resp.StatusCode, tt.status, body)
		}
		challenge := strings.Join(resp.Header.Values("WWW-Authenticate"), "\n")
		for _, c := range tt.challenges {
			if !strings.Contains(challenge, c) {
				t.Errorf("%s: WWW-Authenticate %q lacks %s", tt.name, challenge, c)
			}
		}
	}

	// The metadata document, at the path-aware and the root well-known URL.
	for _, u := range []string{prm, origin + "/.well-known/oauth-protected-resource"} {
		resp, body := get(t, u)
		var doc struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		if err := json.Unmarshal([]byte(body), &doc); resp.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("GET %s: %d %v\n%s", u, resp.StatusCode, err, body)
		}
		if doc.Resource != url || len(doc.AuthorizationServers) != 1 || doc.AuthorizationServers[0] != is.URL ||
			len(doc.ScopesSupported) != 1 || doc.ScopesSupported[0] != "pkgdocs:read" {
			t.Errorf("GET %s: %+v", u, doc)
		}
	}
}

// TestTeamServerOAuthClient: an MCP client with a token that lacks the
// scope is refused with 403 and the scope it needs; with the scope it
// gets its answer.
func TestTeamServerOAuthClient(t *testing.T) {
	is, url, _ := startProtected(t, nil)
	_, err := connect(t, url, mint(is, "alice", "profile", url))
	var hse *mcp.HTTPStatusError
	if !errors.As(err, &hse) || hse.StatusCode != http.StatusForbidden ||
		!strings.Contains(strings.Join(hse.WWWAuthenticate, " "), `scope="pkgdocs:read"`) {
		t.Fatalf("connect without the scope: %v, want 403 insufficient_scope naming pkgdocs:read", err)
	}
	cs, err := connect(t, url, mint(is, "alice", "pkgdocs:read", url))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil)
	if err != nil || res.IsError || !strings.HasPrefix(text(res), "# example.com/demo/sub@v1.1.0\n") {
		t.Fatalf("describe with the scope: %v\n%+v", err, res)
	}
}

// TestTeamServerScopeFlag: --scope "" accepts any valid token; several
// scopes must all be granted.
func TestTeamServerScopeFlag(t *testing.T) {
	tests := []struct {
		scope, granted string
		status         int
	}{
		{"", "", http.StatusOK},
		{"docs:read team:member", "docs:read", http.StatusForbidden},
		{"docs:read team:member", "team:member docs:read", http.StatusOK},
	}
	for _, tt := range tests {
		is, url, _ := startProtected(t, func(c *teamConfig) { c.scope = tt.scope })
		if resp, body := post(t, url, mint(is, "alice", tt.granted, url)); resp.StatusCode != tt.status {
			t.Errorf("--scope %q, token granting %q: %d, want %d: %s", tt.scope, tt.granted, resp.StatusCode, tt.status, body)
		}
	}
}

// TestTeamServerIntrospection: with --introspection-url, opaque tokens
// are whatever the introspection endpoint says, asked with pkgdocs' own
// client id and secret; the scope is checked as for JWTs.
func TestTeamServerIntrospection(t *testing.T) {
	const secret = "introspection-secret"
	var authenticated atomic.Int64
	ln := listen(t)
	resource := "http://" + ln.Addr().String() + "/mcp"
	grants := map[string]string{"opaque-reader": "pkgdocs:read", "opaque-other": "profile"}
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, pw, ok := r.BasicAuth(); !ok || id != "pkgdocs" || pw != secret {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		authenticated.Add(1)
		scope, active := grants[r.PostFormValue("token")]
		json.NewEncoder(w).Encode(map[string]any{"active": active, "sub": "alice", "scope": scope,
			"aud": resource, "exp": time.Now().Add(time.Hour).Unix()})
	}))
	defer as.Close()
	cfg := testTeamConfig(&logSink{})
	cfg.issuer, cfg.resource = "https://auth.example.com", resource
	cfg.introspectionURL, cfg.introspectionClientID, cfg.introspectionSecret = as.URL, "pkgdocs", secret
	_, url := startTeam(t, newDemoService(t, newDemoProxy(t, false)), cfg, ln)
	for token, want := range map[string]int{"opaque-reader": http.StatusOK, "opaque-other": http.StatusForbidden, "opaque-unknown": http.StatusUnauthorized} {
		if resp, body := post(t, url, token); resp.StatusCode != want {
			t.Errorf("token %s: %d, want %d: %s", token, resp.StatusCode, want, body)
		}
	}
	if authenticated.Load() == 0 {
		t.Error("the introspection endpoint was never asked with pkgdocs' credentials")
	}
}

// TestTeamConfigErrors: configurations that cannot work are refused with
// the flag to fix, never served half-protected.
func TestTeamConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*teamConfig)
		want string
	}{
		{"issuer without resource", func(c *teamConfig) { c.issuer = "https://auth.example.com" }, "--issuer needs --resource"},
		{"introspection without issuer", func(c *teamConfig) { c.introspectionURL = "https://auth.example.com/introspect" }, "need --issuer"},
		{"introspection without client", func(c *teamConfig) {
			c.issuer, c.resource, c.introspectionURL = "https://auth.example.com", "https://docs.example.com/mcp", "https://auth.example.com/introspect"
		}, "--introspection-client-id and the secret in PKGDOCS_INTROSPECTION_SECRET"},
		{"client id without introspection", func(c *teamConfig) {
			c.issuer, c.resource, c.introspectionClientID = "https://auth.example.com", "https://docs.example.com/mcp", "pkgdocs"
		}, "--introspection-client-id needs --introspection-url"},
		{"issuer not a URL", func(c *teamConfig) { c.issuer, c.resource = "auth.example.com", "https://docs.example.com/mcp" }, "--issuer"},
		{"resource not a URL", func(c *teamConfig) { c.resource = "docs.example.com/mcp" }, "--resource"},
		{"resource not HTTP", func(c *teamConfig) { c.resource = "ftp://docs.example.com/mcp" }, "want an https"},
		{"resource with a fragment", func(c *teamConfig) { c.resource = "https://docs.example.com/mcp#x" }, "--resource"},
		{"resource path with a pattern", func(c *teamConfig) { c.resource = "https://docs.example.com/{x}" }, "the path may hold only"},
		{"resource at the health path", func(c *teamConfig) { c.resource = "https://docs.example.com/healthz" }, "the server's own path"},
		{"negative rate", func(c *teamConfig) { c.rateLimit = -1 }, "--rate-limit"},
		{"no burst", func(c *teamConfig) { c.rateBurst = 0 }, "--rate-burst"},
		{"no drain time", func(c *teamConfig) { c.drainTimeout = 0 }, "--drain-timeout"},
		{"delay past the drain time", func(c *teamConfig) { c.drainDelay = c.drainTimeout }, "--drain-delay"},
	}
	for _, tt := range tests {
		cfg := testTeamConfig(&logSink{})
		tt.edit(&cfg)
		_, err := newTeamServer(mcp.NewServer("x", "v1", nil), cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
