package auth

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTokensNeverLogged sends refused, unavailable and accepted tokens
// through a middleware with a logger, and looks for them in the log.
func TestTokensNeverLogged(t *testing.T) {
	var log lockedBuffer
	logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ts, _ := protected(t, func(o *RequireBearerTokenOptions) { o.Logger = logger }, nil)
	tokens := []string{"forged-secret-token-1", "down", "alice-basic", "no-scope"}
	// A verifier that quotes the token in its error.
	quoting := mustProtect(t, TokenVerifierFunc(func(ctx context.Context, token string) (*TokenInfo, error) {
		return nil, fmt.Errorf("%w: token %s is not one of ours", ErrInvalidToken, token)
	}), &RequireBearerTokenOptions{Logger: logger})(http.NotFoundHandler())
	qs := httptest.NewServer(quoting)
	defer qs.Close()
	resp, body := post(t, qs.URL, "{}", "Authorization", "Bearer quoted-secret-token")
	if strings.Contains(body, "quoted-secret-token") || strings.Contains(resp.Header.Get("WWW-Authenticate"), "quoted-secret-token") {
		t.Errorf("quoted token echoed: %s %s", body, resp.Header.Get("WWW-Authenticate"))
	}
	tokens = append(tokens, "quoted-secret-token")
	for _, tok := range tokens {
		post(t, ts.URL, legacyInit(1), "Authorization", "Bearer "+tok)
		post(t, ts.URL, legacyCall(2, "whoami"), "Authorization", "Bearer "+tok, "Mcp-Session-Id", "s")
	}
	post(t, ts.URL+"?access_token=query-secret-token", legacyInit(1))
	out := log.String()
	if !strings.Contains(out, "token refused") {
		t.Fatalf("nothing logged: %q", out)
	}
	for _, tok := range append(tokens, "query-secret-token") {
		if strings.Contains(out, tok) {
			t.Errorf("token %q logged: %s", tok, out)
		}
	}
}

// TestJWKSSlowBehindMiddleware: a request whose token needs keys from a
// JWKS endpoint that does not answer gets 503 within the fetch timeout,
// and the fetch goroutine ends with it.
func TestJWKSSlowBehindMiddleware(t *testing.T) {
	as := newTestAS(t)
	as.jwksDelay.Store(int64(5 * time.Second))
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) {
		o.Audience = "http://127.0.0.1/mcp"
		o.FetchTimeout = 150 * time.Millisecond
	})
	s := whoServer(nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ts := httptest.NewServer(mustProtect(t, v, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL})(h))
	defer ts.Close()
	defer h.Close()
	tok := as.mint(t, "ES256", as.claims("http://127.0.0.1/mcp", "alice", ""))
	start := time.Now()
	resp, _ := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer "+tok)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", resp.StatusCode)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("answered after %v; fetch timeout 150ms", d)
	}
	// The fetch ends by its own timeout; no goroutine of ours is left.
	deadline := time.Now().Add(3 * time.Second)
	for fetching() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if fetching() {
		t.Error("a JWKS fetch goroutine outlived its timeout")
	}
	// Once the JWKS answers (after the failure back-off), the same token works.
	as.jwksDelay.Store(0)
	time.Sleep(failureBackoff + 100*time.Millisecond)
	resp, body := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer "+tok)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after recovery: %d %s", resp.StatusCode, body)
	}
}

// TestMethodScopes: scopes per JSON-RPC method, and a rule function.
func TestMethodScopes(t *testing.T) {
	ts, _ := protected(t, func(o *RequireBearerTokenOptions) {
		o.Scopes = ScopeRules{
			Methods: map[string][]string{"tools/list": {"tools:list"}},
			Func: func(method, name string) []string {
				if strings.HasPrefix(name, "admin-") {
					return []string{"admin"}
				}
				return nil
			},
		}
	}, nil)
	resp, _ := post(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Authorization", "Bearer alice-all", "Mcp-Session-Id", "x")
	if c := challengeOf(t, resp.Header)["Bearer"]; resp.StatusCode != http.StatusForbidden || c["scope"] != "tools:list" {
		t.Errorf("tools/list: %d %v", resp.StatusCode, c)
	}
	resp, _ = post(t, ts.URL, legacyCall(1, "admin-reset"), "Authorization", "Bearer alice-all", "Mcp-Session-Id", "x")
	if c := challengeOf(t, resp.Header)["Bearer"]; resp.StatusCode != http.StatusForbidden || c["scope"] != "admin" {
		t.Errorf("admin tool: %d %v", resp.StatusCode, c)
	}
	// Not covered by a rule: passes the middleware (and the handler
	// answers 404 for the made-up session).
	resp, _ = post(t, ts.URL, legacyCall(1, "greet"), "Authorization", "Bearer alice-all", "Mcp-Session-Id", "x")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("greet: %d", resp.StatusCode)
	}
}

func TestTokenInfoFromContext(t *testing.T) {
	if TokenInfoFromContext(context.Background()) != nil {
		t.Error("TokenInfo from an empty context")
	}
	ti := &TokenInfo{Subject: "a"}
	if TokenInfoFromContext(ContextWithTokenInfo(context.Background(), ti)) != ti {
		t.Error("ContextWithTokenInfo lost")
	}
	if err := (&TokenInfo{}).DecodeClaims(&struct{}{}); err == nil {
		t.Error("DecodeClaims without claims")
	}
}

// TestMisconfiguredMiddlewareFailsToBuild: a configuration that cannot
// work is an error of RequireBearerToken, not a 500 to every request.
func TestMisconfiguredMiddlewareFailsToBuild(t *testing.T) {
	tests := []struct {
		name   string
		verify TokenVerifier
		opts   *RequireBearerTokenOptions
		want   string
	}{
		{"no verifier", nil, nil, "needs a TokenVerifier"},
		{"relative resource", testTokens, &RequireBearerTokenOptions{Resource: "/mcp"}, "Resource"},
		{"resource with fragment", testTokens, &RequireBearerTokenOptions{Resource: "https://mcp.example.com/mcp#x"}, "Resource"},
		{"unparsable resource", testTokens, &RequireBearerTokenOptions{Resource: "https://mcp.example.com:port/mcp"}, "Resource"},
		{"relative metadata URL", testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: "/.well-known/oauth-protected-resource"}, "ResourceMetadataURL"},
		{"unknown DPoP algorithm", testTokens, &RequireBearerTokenOptions{DPoP: &DPoPOptions{Algorithms: []string{"none"}}}, "DPoP"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			protect, err := RequireBearerToken(tc.verify, tc.opts)
			if err == nil || protect != nil {
				t.Fatalf("RequireBearerToken = %v, %v; want an error", protect != nil, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	if _, err := RequireBearerToken(testTokens, &RequireBearerTokenOptions{Resource: "https://mcp.example.com/mcp"}); err != nil {
		t.Errorf("a valid configuration: %v", err)
	}
}

// fetching reports whether a JWKS fetch goroutine is running.
func fetching() bool {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return bytes.Contains(buf[:n], []byte("auth.(*jwksCache).fetch"))
}

func TestCORSPreflightPassesThrough(t *testing.T) {
	served := false
	h := mustProtect(t, testTokens, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served = true
		if TokenInfoFromContext(r.Context()) != nil {
			t.Error("preflight carries a TokenInfo")
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	req := httptest.NewRequest(http.MethodOptions, "/mcp", nil)
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !served || rec.Code != http.StatusNoContent {
		t.Errorf("preflight: served %v, status %d", served, rec.Code)
	}
	// A plain OPTIONS still needs a token.
	served = false
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodOptions, "/mcp", nil))
	if served || rec.Code != http.StatusUnauthorized {
		t.Errorf("OPTIONS without preflight headers: served %v, status %d", served, rec.Code)
	}
}

// TestHeaderKeysCanonical checks that the header names read by direct map
// access are in canonical form, so that they find what Header.Get finds.
func TestHeaderKeysCanonical(t *testing.T) {
	for _, k := range []string{"Authorization", "Mcp-Protocol-Version", "Mcp-Session-Id", "Mcp-Method", "Mcp-Name"} {
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("%q is not canonical (%q)", k, c)
		}
	}
}
