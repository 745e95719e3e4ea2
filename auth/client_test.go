package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// newCodeTransport returns a Transport with the authorization code grant
// driven by headless, counting authorizations in *calls.
func newCodeTransport(t *testing.T, rs *fakeRS, opts *TransportOptions) (*Transport, *int, *sync.Mutex) {
	t.Helper()
	calls, mu := new(int), new(sync.Mutex)
	if opts == nil {
		opts = &TransportOptions{}
	}
	if opts.Grant == nil {
		opts.Grant = &AuthorizationCodeGrant{RedirectURL: "http://127.0.0.1:1/callback", Authorize: headless(calls, mu)}
	}
	tr, err := NewTransport(rs.url(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, calls, mu
}

// postThrough sends body to the fake MCP server through tr and returns the
// status and response body.
func postThrough(t *testing.T, tr http.RoundTripper, target, body string) (int, string, error) {
	t.Helper()
	hc := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	// A body without GetBody, as a streaming caller would send.
	req, _ := http.NewRequest(http.MethodPost, target, io.NopCloser(strings.NewReader(body)))
	resp, err := hc.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func TestTransportAuthorizationCode(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	rs.challengeScope = "mcp:basic"
	tr, calls, _ := newCodeTransport(t, rs, nil)

	status, body, err := postThrough(t, tr, rs.url(), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if err != nil || status != 200 || body != `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` {
		t.Fatalf("got %d %q %v; want the body echoed (replayed after the 401)", status, body, err)
	}
	if *calls != 1 {
		t.Errorf("authorizations = %d, want 1", *calls)
	}
	q := as.authorizeQ[0]
	for k, want := range map[string]string{
		"response_type": "code", "code_challenge_method": "S256", "resource": rs.url(), "scope": "mcp:basic",
		"redirect_uri": "http://127.0.0.1:1/callback",
	} {
		if q.Get(k) != want {
			t.Errorf("authorize %s = %q, want %q", k, q.Get(k), want)
		}
	}
	if len(as.registered) != 1 || as.registered[0].ApplicationType != "native" || !equalStrings(as.registered[0].GrantTypes, "authorization_code", "refresh_token") {
		t.Errorf("registration = %+v, want one native registration with refresh_token", as.registered)
	}
	f := as.tokenForms[0]
	if f.Get("resource") != rs.url() || f.Get("code_verifier") == "" || f.Get("client_id") != q.Get("client_id") {
		t.Errorf("token form = %v", f)
	}
	// The second request reuses the token.
	if status, _, err := postThrough(t, tr, rs.url(), "x"); err != nil || status != 200 || *calls != 1 || as.count("POST /token") != 1 {
		t.Errorf("second request: %d %v, authorizations %d", status, err, *calls)
	}
	if got := tr.Token(); got == nil || got.Issuer != as.issuer || got.Resource != rs.url() || got.TokenType != "Bearer" {
		t.Errorf("Token() = %v", got)
	}
}

func equalStrings(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestDiscoveryOrder(t *testing.T) {
	tests := []struct {
		name       string
		asPath     string
		mdPaths    []string // where the AS serves metadata
		prmPath    string
		headerPRM  bool
		wantRSGets []string
		wantASGets []string
	}{
		{name: "header names PRM", prmPath: "/custom/prm.json", headerPRM: true,
			wantRSGets: []string{"GET /custom/prm.json"}, wantASGets: []string{"GET /.well-known/oauth-authorization-server"}},
		{name: "path-aware PRM first", headerPRM: false,
			wantRSGets: []string{"GET /.well-known/oauth-protected-resource/mcp"}, wantASGets: []string{"GET /.well-known/oauth-authorization-server"}},
		{name: "root PRM last", prmPath: "/.well-known/oauth-protected-resource", headerPRM: false,
			wantRSGets: []string{"GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/oauth-protected-resource"}},
		{name: "OIDC root", mdPaths: []string{"/.well-known/openid-configuration"}, headerPRM: true,
			wantASGets: []string{"GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"}},
		{name: "issuer path, OAuth inserted", asPath: "/tenant1", headerPRM: true,
			wantASGets: []string{"GET /.well-known/oauth-authorization-server/tenant1"}},
		{name: "issuer path, OIDC inserted", asPath: "/tenant1", mdPaths: []string{"/.well-known/openid-configuration/tenant1"}, headerPRM: true,
			wantASGets: []string{"GET /.well-known/oauth-authorization-server/tenant1", "GET /.well-known/openid-configuration/tenant1"}},
		{name: "issuer path, OIDC appended", asPath: "/tenant1", mdPaths: []string{"/tenant1/.well-known/openid-configuration"}, headerPRM: true,
			wantASGets: []string{"GET /.well-known/oauth-authorization-server/tenant1", "GET /.well-known/openid-configuration/tenant1", "GET /tenant1/.well-known/openid-configuration"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.asPath)
			if tt.mdPaths != nil {
				as.mdPaths = tt.mdPaths
			}
			rs := newFakeRS(t, as)
			rs.prmPath, rs.headerPRM = tt.prmPath, tt.headerPRM
			if tt.prmPath == "/.well-known/oauth-protected-resource" {
				rs.prmResource = rs.srv.URL // a bare origin, sent byte for byte
			}
			tr, _, _ := newCodeTransport(t, rs, nil)
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			var gets []string
			for _, r := range rs.requests {
				if strings.HasPrefix(r, "GET ") {
					gets = append(gets, r)
				}
			}
			if tt.wantRSGets != nil && !equalStrings(gets, tt.wantRSGets...) {
				t.Errorf("resource server GETs = %q, want %q", gets, tt.wantRSGets)
			}
			var asGets []string
			for _, r := range as.requests {
				if strings.HasPrefix(r, "GET /.well-known") || strings.Contains(r, "/.well-known/") {
					asGets = append(asGets, r)
				}
			}
			if tt.wantASGets != nil && !equalStrings(asGets, tt.wantASGets...) {
				t.Errorf("authorization server GETs = %q, want %q", asGets, tt.wantASGets)
			}
			if tt.prmPath == "/.well-known/oauth-protected-resource" && as.authorizeQ[0].Get("resource") != rs.srv.URL {
				t.Errorf("resource = %q, want the PRM's %q byte for byte", as.authorizeQ[0].Get("resource"), rs.srv.URL)
			}
		})
	}
}

// badInputCases are servers that misbehave; each case must fail with the
// given error and must not reach the given endpoints.
var badInputCases = []struct {
	name    string
	setup   func(as *fakeAS, rs *fakeRS, opts *TransportOptions)
	wantErr error
	wantOA  string   // OAuthError code, if any
	never   []string // request prefixes at the AS that must not happen
}{
	{name: "metadata issuer mismatch", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.metadataIssuer = "https://attacker.example.com" },
		wantErr: ErrIssuerMismatch, never: []string{"POST /register", "GET /authorize", "POST /token"}},
	{name: "wrong state", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.stateMode = "wrong" },
		wantErr: ErrStateMismatch, never: []string{"POST /token"}},
	{name: "missing state", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.stateMode = "omit" },
		wantErr: ErrStateMismatch, never: []string{"POST /token"}},
	{name: "wrong iss", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.issMode = "wrong" },
		wantErr: ErrIssuerMismatch, never: []string{"POST /token"}},
	{name: "iss with a trailing slash", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.issMode = "slash" },
		wantErr: ErrIssuerMismatch, never: []string{"POST /token"}},
	{name: "missing iss when advertised", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.issMode = "omit" },
		wantErr: ErrMissingIssuer, never: []string{"POST /token"}},
	{name: "unexpected iss when not advertised", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.issMode, as.md.AuthorizationResponseIssParameterSupported = "wrong", false
	}, wantErr: ErrIssuerMismatch, never: []string{"POST /token"}},
	{name: "error response with wrong iss is not acted on", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.issMode, as.authError = "wrong", "access_denied"
	}, wantErr: ErrIssuerMismatch, never: []string{"POST /token"}},
	{name: "access denied", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.authError = "access_denied" },
		wantOA: "access_denied", never: []string{"POST /token"}},
	{name: "invalid_grant", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.tokenError = "invalid_grant" }, wantOA: "invalid_grant"},
	{name: "invalid_client", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.tokenError, as.tokenStatus = "invalid_client", 401
	}, wantOA: "invalid_client"},
	{name: "token endpoint 500", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.tokenError, as.tokenStatus = "x", 500 }},
	{name: "slow token endpoint", setup: func(as *fakeAS, _ *fakeRS, opts *TransportOptions) {
		as.tokenDelay = 5 * time.Second
		opts.HTTPClient = &http.Client{Timeout: 200 * time.Millisecond}
	}},
	{name: "registration refused", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.regStatus = 400 },
		wantErr: ErrRegistrationRefused, never: []string{"GET /authorize", "POST /token"}},
	{name: "PRM resource of another server", setup: func(_ *fakeAS, rs *fakeRS, _ *TransportOptions) { rs.prmResource = "https://evil.example.com/mcp" },
		wantErr: ErrResourceMismatch, never: []string{"GET /.well-known", "GET /authorize", "POST /token"}},
	{name: "PRM resource with another path", setup: func(_ *fakeAS, rs *fakeRS, _ *TransportOptions) { rs.prmResource = rs.srv.URL + "/other" },
		wantErr: ErrResourceMismatch, never: []string{"GET /authorize"}},
	{name: "http token endpoint off loopback", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.md.TokenEndpoint = "http://as.example.com/token" },
		wantErr: ErrInsecureEndpoint, never: []string{"POST /register", "GET /authorize"}},
	{name: "http authorization endpoint off loopback", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.md.AuthorizationEndpoint = "http://as.example.com/authorize"
	}, wantErr: ErrInsecureEndpoint, never: []string{"POST /register"}},
	{name: "no PKCE S256", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.md.CodeChallengeMethodsSupported = []string{"plain"}
	},
		never: []string{"GET /authorize"}},
	{name: "PKCE not advertised", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) {
		as.md.CodeChallengeMethodsSupported = nil
	},
		never: []string{"GET /authorize"}},
	{name: "no way to identify the client", setup: func(as *fakeAS, _ *fakeRS, _ *TransportOptions) { as.md.RegistrationEndpoint = "" },
		wantErr: ErrNoClientIdentity, never: []string{"GET /authorize"}},
	{name: "pre-registered client of another issuer", setup: func(_ *fakeAS, _ *fakeRS, opts *TransportOptions) {
		opts.Client = &PreRegisteredClient{ClientID: "c", ClientSecret: "s", Issuer: "https://other.example.com"}
	}, never: []string{"GET /.well-known", "GET /authorize"}},
}

// TestBadInput runs the flow against each of badInputCases.
func TestBadInput(t *testing.T) {
	tests := badInputCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, "")
			rs := newFakeRS(t, as)
			opts := &TransportOptions{}
			tt.setup(as, rs, opts)
			tr, _, _ := newCodeTransport(t, rs, opts)
			start := time.Now()
			status, _, err := postThrough(t, tr, rs.url(), "{}")
			if err == nil {
				t.Fatalf("got status %d and no error", status)
			}
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			var oe *OAuthError
			if tt.wantOA != "" && (!errors.As(err, &oe) || oe.Code != tt.wantOA) {
				t.Errorf("err = %v, want OAuth error %s", err, tt.wantOA)
			}
			for _, n := range tt.never {
				if c := as.count(n); c != 0 {
					t.Errorf("%d requests %q, want none (requests %q)", c, n, as.requests)
				}
			}
			for _, a := range rs.authz {
				if a != "" {
					t.Errorf("a token reached the server: %q", a)
				}
			}
		})
	}
}

func TestSecretsAreNotRedirected(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	other := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		writeJSON(w, 200, map[string]any{"access_token": "stolen", "token_type": "Bearer"})
	})
	as := newFakeAS(t, "")
	as.tokenRedirect = other.URL + "/token"
	rs := newFakeRS(t, as)
	tr, _, _ := newCodeTransport(t, rs, &TransportOptions{Client: &PreRegisteredClient{ClientID: "c", ClientSecret: "s"}})
	if _, _, err := postThrough(t, tr, rs.url(), "{}"); err == nil {
		t.Fatal("no error")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 0 {
		t.Errorf("the redirect was followed: %q", seen)
	}
}

func TestTokensStayWithTheirHost(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	var leaked []string
	var mu sync.Mutex
	other := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization"))
		mu.Unlock()
	})
	tr, _, _ := newCodeTransport(t, rs, nil)
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	// A request to another origin through the same transport, and a
	// redirect from the server to another origin: no token either way.
	if _, _, err := postThrough(t, tr, other.URL+"/x", "{}"); err != nil {
		t.Fatal(err)
	}
	redirector := httptestServer(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/y", http.StatusFound) })
	tr2, err := NewTransport(redirector.URL+"/mcp", &TransportOptions{Grant: ClientCredentialsGrant{}})
	if err != nil {
		t.Fatal(err)
	}
	tr2.tok, tr2.gen = &Token{AccessToken: "secret-token", TokenType: "Bearer"}, 1
	if _, _, err := postThrough(t, tr2, redirector.URL+"/mcp", "{}"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) != 2 || leaked[0] != "" || leaked[1] != "" {
		t.Errorf("Authorization headers at the other host: %q, want two empty", leaked)
	}
}

func TestStepUp(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	rs.challengeScope = "mcp:basic"
	rs.needScope = func(r *http.Request) []string {
		if r.Header.Get("X-Op") == "write" {
			return []string{"mcp:write"}
		}
		return nil
	}
	tr, calls, _ := newCodeTransport(t, rs, nil)
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequest(http.MethodPost, rs.url(), strings.NewReader("write"))
	req.Header.Set("X-Op", "write")
	resp, err := hc.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("step-up request: %v %v", resp, err)
	}
	resp.Body.Close()
	if *calls != 2 || as.authorizeQ[1].Get("scope") != "mcp:basic mcp:write" {
		t.Errorf("authorizations %d, second scope %q; want 2 and the union", *calls, as.authorizeQ[1].Get("scope"))
	}
}

func TestStepUpLimit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		scopes    func(n int) string
		wantAuths int
	}{
		{"same scope every time", func(int) string { return "mcp:admin" }, 2},
		{"new scope every time", func(n int) string { return "s" + string(rune('0'+n)) }, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, "")
			rs := newFakeRS(t, as)
			n := 0
			rs.needScope = func(*http.Request) []string { n++; return []string{tt.scopes(n), "never-granted"} }
			as.withhold = "never-granted"
			tr, calls, _ := newCodeTransport(t, rs, nil)
			status, _, err := postThrough(t, tr, rs.url(), "{}")
			if err != nil || status != http.StatusForbidden {
				t.Fatalf("got %d, %v; want the final 403", status, err)
			}
			if *calls > 3 || *calls != tt.wantAuths {
				t.Errorf("authorizations = %d, want %d (never more than 3)", *calls, tt.wantAuths)
			}
		})
	}
}

func TestRefresh(t *testing.T) {
	as := newFakeAS(t, "")
	as.refreshTokens, as.expiresIn = true, 30 // expires within RefreshBefore
	rs := newFakeRS(t, as)
	tr, calls, _ := newCodeTransport(t, rs, nil)
	for i := 0; i < 3; i++ {
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("request %d: %d, %v", i, status, err)
		}
	}
	var grants []string
	for _, f := range as.tokenForms {
		grants = append(grants, f.Get("grant_type"))
	}
	if *calls != 1 || !equalStrings(grants, "authorization_code", "refresh_token", "refresh_token") {
		t.Errorf("authorizations %d, grants %q; want one authorization, then refreshes", *calls, grants)
	}
	if f := as.tokenForms[1]; f.Get("resource") != rs.url() || f.Get("client_id") == "" {
		t.Errorf("refresh form %v", f)
	}

	// invalid_token from the server: refresh, no new authorization.
	as.expiresIn = 3600
	tr2, calls2, _ := newCodeTransport(t, rs, nil)
	postThrough(t, tr2, rs.url(), "{}")
	as.mu.Lock()
	clear(as.tokens) // the server forgets every access token
	as.mu.Unlock()
	if status, _, err := postThrough(t, tr2, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("after invalid_token: %d, %v", status, err)
	}
	if *calls2 != 1 || as.tokenForms[len(as.tokenForms)-1].Get("grant_type") != "refresh_token" {
		t.Errorf("authorizations %d; want the refresh token used", *calls2)
	}
}

func TestConcurrentRequestsShareOneAuthorization(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	tr, calls, _ := newCodeTransport(t, rs, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				errs <- errors.New("request failed")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if *calls != 1 || len(as.registered) != 1 {
		t.Errorf("authorizations %d, registrations %d; want 1 each", *calls, len(as.registered))
	}
}

func TestScopeSelection(t *testing.T) {
	for _, tt := range []struct {
		name        string
		challenge   string
		supported   []string
		asScopes    []string
		offline     bool
		wantScope   string
		wantPresent bool
	}{
		{name: "challenge", challenge: "a b", supported: []string{"c"}, wantScope: "a b", wantPresent: true},
		{name: "scopes_supported", supported: []string{"a", "b", "c"}, wantScope: "a b c", wantPresent: true},
		{name: "omitted", wantPresent: false},
		{name: "offline_access offered", challenge: "a", asScopes: []string{"a", "offline_access"}, offline: true, wantScope: "a offline_access", wantPresent: true},
		{name: "offline_access not offered", challenge: "a", asScopes: []string{"a"}, offline: true, wantScope: "a", wantPresent: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, "")
			as.md.ScopesSupported = tt.asScopes
			rs := newFakeRS(t, as)
			rs.challengeScope, rs.scopesSup = tt.challenge, tt.supported
			tr, _, _ := newCodeTransport(t, rs, &TransportOptions{OfflineAccess: tt.offline})
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			q := as.authorizeQ[0]
			if q.Has("scope") != tt.wantPresent || q.Get("scope") != tt.wantScope {
				t.Errorf("scope = %q (present %t), want %q (present %t)", q.Get("scope"), q.Has("scope"), tt.wantScope, tt.wantPresent)
			}
		})
	}
}

func TestClientIdentityOrder(t *testing.T) {
	const cimd = "https://client.example.com/metadata.json"
	for _, tt := range []struct {
		name         string
		pre          *PreRegisteredClient
		cimdOK       bool
		wantClientID string
		wantRegister bool
	}{
		{name: "pre-registered first", pre: &PreRegisteredClient{ClientID: "pre", ClientSecret: "pre-secret"}, cimdOK: true, wantClientID: "pre"},
		{name: "CIMD before DCR", cimdOK: true, wantClientID: cimd},
		{name: "DCR last", wantRegister: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, "")
			as.md.ClientIDMetadataDocumentSupported = tt.cimdOK
			rs := newFakeRS(t, as)
			if tt.pre != nil {
				tt.pre.Issuer = as.issuer
			}
			tr, _, _ := newCodeTransport(t, rs, &TransportOptions{Client: tt.pre, ClientMetadataURL: cimd})
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			got := as.authorizeQ[0].Get("client_id")
			if tt.wantClientID != "" && got != tt.wantClientID {
				t.Errorf("client_id = %q, want %q", got, tt.wantClientID)
			}
			if (len(as.registered) == 1) != tt.wantRegister {
				t.Errorf("registrations = %d", len(as.registered))
			}
			if tt.pre != nil {
				h := as.tokenHeaders[0].Get("Authorization")
				if h == "" || !strings.HasPrefix(h, "Basic ") {
					t.Errorf("token request Authorization = %q, want Basic", h)
				}
			}
		})
	}
}

func TestTokenEndpointAuthMethods(t *testing.T) {
	for _, method := range []string{"client_secret_basic", "client_secret_post", "none"} {
		t.Run(method, func(t *testing.T) {
			as := newFakeAS(t, "")
			as.md.TokenEndpointAuthMethodsSupported = []string{method}
			rs := newFakeRS(t, as)
			tr, _, _ := newCodeTransport(t, rs, nil)
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			if as.registered[0].TokenEndpointAuthMethod != method {
				t.Errorf("registered method %q", as.registered[0].TokenEndpointAuthMethod)
			}
			f, h := as.tokenForms[0], as.tokenHeaders[0]
			basic := strings.HasPrefix(h.Get("Authorization"), "Basic ")
			post := f.Get("client_secret") == "dcr-secret"
			if basic != (method == "client_secret_basic") || post != (method == "client_secret_post") || f.Get("client_id") == "" && method != "client_secret_basic" {
				t.Errorf("basic %t, post %t, form %v", basic, post, f)
			}
		})
	}
}

func TestLegacyFallbacks(t *testing.T) {
	t.Run("metadata at the server root", func(t *testing.T) {
		as := newFakeAS(t, "/oauth") // issuer on the server's origin, with a path
		as.mdPaths = []string{"/.well-known/oauth-authorization-server"}
		rs := &fakeRS{t: t, as: []*fakeAS{as}, prmPath: "-", prmResource: "", headerPRM: false, jtis: map[string]bool{}}
		rs.srv = as.srv // the MCP server is also the authorization server
		mux := http.NewServeMux()
		mux.HandleFunc("/mcp", rs.serve)
		mux.HandleFunc("/", as.serve)
		as.srv.Config.Handler = mux
		tr, calls, _ := newCodeTransport(t, rs, nil)
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("got %d, %v", status, err)
		}
		if *calls != 1 || as.count("POST /oauth/register") != 1 || as.count("POST /oauth/token") != 1 {
			t.Errorf("requests %q", as.requests)
		}
	})
	t.Run("default endpoints", func(t *testing.T) {
		as := newFakeAS(t, "")
		as.mdPaths = nil
		as.md.AuthorizationResponseIssParameterSupported = false
		as.issMode = "omit"
		rs := &fakeRS{t: t, as: []*fakeAS{as}, prmPath: "-", headerPRM: false, jtis: map[string]bool{}}
		rs.srv = as.srv
		mux := http.NewServeMux()
		mux.HandleFunc("/mcp", rs.serve)
		mux.HandleFunc("/", as.serve)
		as.srv.Config.Handler = mux
		tr, _, _ := newCodeTransport(t, rs, nil)
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("got %d, %v", status, err)
		}
		for _, want := range []string{"POST /register", "GET /authorize", "POST /token"} {
			if as.count(want) != 1 {
				t.Errorf("%s: %d requests (all: %q)", want, as.count(want), as.requests)
			}
		}
	})
	t.Run("metadata issuer on another origin", func(t *testing.T) {
		as := newFakeAS(t, "")
		as.metadataIssuer = "https://attacker.example.com"
		rs := &fakeRS{t: t, as: []*fakeAS{as}, prmPath: "-", headerPRM: false, jtis: map[string]bool{}}
		rs.srv = as.srv
		mux := http.NewServeMux()
		mux.HandleFunc("/mcp", rs.serve)
		mux.HandleFunc("/", as.serve)
		as.srv.Config.Handler = mux
		tr, _, _ := newCodeTransport(t, rs, nil)
		if _, _, err := postThrough(t, tr, rs.url(), "{}"); !errors.Is(err, ErrIssuerMismatch) || as.count("POST /register") != 0 {
			t.Errorf("err = %v, requests %q", err, as.requests)
		}
	})
}

func TestAuthorizationServerMigration(t *testing.T) {
	as1, as2 := newFakeAS(t, ""), newFakeAS(t, "")
	rs := newFakeRS(t, as1)
	tr, calls, _ := newCodeTransport(t, rs, nil)
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	rs.mu.Lock()
	rs.as = []*fakeAS{as2, as1} // PRM now names AS2; AS1's tokens are refused
	rs.mu.Unlock()
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("after migration: %d, %v", status, err)
	}
	id1 := as1.authorizeQ[0].Get("client_id")
	if *calls != 2 || len(as2.registered) != 1 || as2.authorizeQ[0].Get("client_id") == id1 || as2.tokenForms[0].Get("client_id") == id1 {
		t.Errorf("authorizations %d, AS2 registrations %d, AS2 client %q vs AS1 %q", *calls, len(as2.registered), as2.authorizeQ[0].Get("client_id"), id1)
	}
}

func TestTransportClosed(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	tr, _, _ := newCodeTransport(t, rs, nil)
	tr.Close()
	if _, _, err := postThrough(t, tr, rs.url(), "{}"); !errors.Is(err, ErrTransportClosed) {
		t.Errorf("err = %v, want ErrTransportClosed", err)
	}
}

func TestNewTransportRefusesInsecureServer(t *testing.T) {
	_, err := NewTransport("http://mcp.example.com/mcp", &TransportOptions{Grant: ClientCredentialsGrant{}})
	if !errors.Is(err, ErrInsecureEndpoint) {
		t.Errorf("err = %v", err)
	}
}

func TestReplayableBody(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPost, "https://x/mcp", io.NopCloser(bytes.NewReader([]byte("abc"))))
	r, err := replayable(req)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		b, _ := r.GetBody()
		got, _ := io.ReadAll(b)
		if string(got) != "abc" {
			t.Fatalf("replay %d = %q", i, got)
		}
	}
	_ = url.Values{}
	_ = context.Background
}

// slowUser is an AuthorizeFunc that waits for release before it answers,
// like a user taking time in the browser.
func slowUser(release <-chan struct{}, calls *int, mu *sync.Mutex) AuthorizeFunc {
	h := headless(calls, mu)
	return func(ctx context.Context, authURL string) (string, string, string, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return "", "", "", ctx.Err()
		}
		return h(ctx, authURL)
	}
}

func TestAuthorizationOutlivesTheRequestThatStartedIt(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	release := make(chan struct{})
	calls, mu := new(int), new(sync.Mutex)
	tr, _, _ := newCodeTransport(t, rs, &TransportOptions{Grant: &AuthorizationCodeGrant{RedirectURL: "http://127.0.0.1:1/cb", Authorize: slowUser(release, calls, mu)}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.url(), strings.NewReader("{}"))
	if _, err := tr.RoundTrip(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the request's deadline", err)
	}
	close(release) // the user finishes
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("next request: %d, %v", status, err)
	}
	if *calls != 1 {
		t.Errorf("authorizations = %d, want 1 (the first one, finished)", *calls)
	}
}

func TestCloseStopsAnAuthorizationInProgress(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	check := checkNoGoroutineLeak(t)
	tr, err := NewTransport(rs.url(), &TransportOptions{
		Grant: &AuthorizationCodeGrant{RedirectURL: "http://127.0.0.1:1/cb", Authorize: slowUser(make(chan struct{}), new(int), new(sync.Mutex))},
		Base:  &http.Transport{}, HTTPClient: &http.Client{Transport: &http.Transport{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, rs.url(), strings.NewReader("{}"))
		_, err := tr.RoundTrip(req)
		errc <- err
	}()
	for as.count("GET /.well-known") == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	tr.Close()
	if err := <-errc; err == nil {
		t.Error("the request succeeded")
	}
	check()
}

func TestAuthorizeBeforeRequests(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	rs.scopesSup = []string{"mcp:read"}
	tr, calls, _ := newCodeTransport(t, rs, nil)
	if err := tr.Authorize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if *calls != 1 || len(rs.authz) != 1 || rs.authz[0] == "" || as.authorizeQ[0].Get("scope") != "mcp:read" {
		t.Errorf("authorizations %d, server saw %q, scope %q", *calls, rs.authz, as.authorizeQ[0].Get("scope"))
	}
}

func TestSpentRefreshTokenIsDropped(t *testing.T) {
	as := newFakeAS(t, "")
	as.refreshTokens, as.expiresIn = true, 30 // within RefreshBefore
	rs := newFakeRS(t, as)
	tr, calls, _ := newCodeTransport(t, rs, nil)
	postThrough(t, tr, rs.url(), "{}")
	as.mu.Lock()
	clear(as.refresh) // the server revokes the refresh token
	as.mu.Unlock()
	for i := 0; i < 3; i++ {
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("request %d: %d, %v", i, status, err)
		}
	}
	if n := as.count("POST /token"); *calls != 1 || n != 2 {
		t.Errorf("authorizations %d, token requests %d; want 1 and 2 (one failed refresh, not one per request)", *calls, n)
	}
}
