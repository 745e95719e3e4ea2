package auth

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUnavailableCauseLoggedByDefault: without a Logger, the cause of a
// 503 from a misconfigured issuer goes to slog.Default once per cause,
// naming the metadata URLs tried; with a Logger, that one gets it.
func TestUnavailableCauseLoggedByDefault(t *testing.T) {
	issuer := httptest.NewServer(http.NotFoundHandler()) // no metadata anywhere
	defer issuer.Close()
	v, err := NewJWTVerifier(&JWTVerifierOptions{Issuer: issuer.URL + "/tenant", Audience: "http://127.0.0.1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	var defaultLog bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&defaultLog, nil)))
	defer slog.SetDefault(old)

	as := newTestAS(t) // signs the token; the verifier cannot get its keys
	claims := as.claims("http://127.0.0.1/mcp", "alice", "")
	claims["iss"] = issuer.URL + "/tenant"
	token := as.mint(t, "ES256", claims)
	serve := func(h http.Handler) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Header.Set("Authorization", "Bearer "+token)
		h.ServeHTTP(rec, r)
		return rec
	}
	serveWith := func(o *RequireBearerTokenOptions) func() *httptest.ResponseRecorder {
		h := mustProtect(t, v, o)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			t.Error("served without verification")
		}))
		return func() *httptest.ResponseRecorder {
			return serve(h)
		}
	}
	o := &RequireBearerTokenOptions{ResourceMetadataURL: prmURL}
	serveDefault := serveWith(o)
	for range 3 {
		if rec := serveDefault(); rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503", rec.Code)
		}
	}
	lines := strings.Split(strings.TrimSpace(defaultLog.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("slog.Default got %d lines, want the cause once:\n%s", len(lines), defaultLog.String())
	}
	for _, want := range []string{"token verification unavailable",
		"/.well-known/oauth-authorization-server/tenant", "/.well-known/openid-configuration/tenant", "/tenant/.well-known/openid-configuration"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the logged cause lacks %q: %s", want, lines[0])
		}
	}
	if strings.Contains(defaultLog.String(), token) {
		t.Error("the token was logged")
	}

	// With a Logger of its own, the middleware logs there, every time.
	defaultLog.Reset()
	var own bytes.Buffer
	o = &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Logger: slog.New(slog.NewTextHandler(&own, nil))}
	serveOwn := serveWith(o)
	serveOwn()
	serveOwn()
	if defaultLog.Len() != 0 || strings.Count(own.String(), "token verification unavailable") != 2 {
		t.Errorf("with a Logger: default log %q, own log %q", defaultLog.String(), own.String())
	}
}
