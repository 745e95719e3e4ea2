package auth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// countingBody counts the reads of a request body.
type countingBody struct {
	io.Reader
	reads int
}

func (b *countingBody) Read(p []byte) (int, error) { b.reads++; return b.Reader.Read(p) }

func (b *countingBody) Close() error { return nil }

// TestEveryScopeSkipsBody checks that a legacy request whose token grants
// every scope the rules name is let through without reading its body, and
// that the body is read (and the scopes it needs checked) otherwise.
func TestEveryScopeSkipsBody(t *testing.T) {
	withFunc := testRules
	withFunc.Func = func(method, name string) []string { return nil }
	for _, tc := range []struct {
		name      string
		rules     ScopeRules
		token     string
		status    int
		bodyReads bool
	}{
		{"every scope", testRules, "alice-all", http.StatusOK, false},
		{"a scope short", testRules, "alice-basic", http.StatusForbidden, true},
		{"every scope, but a Func", withFunc, "alice-all", http.StatusOK, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
			h := mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: tc.rules})(next)
			body := &countingBody{Reader: strings.NewReader(legacyCall(2, "whoami"))}
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			r.Body = body
			r.Header.Set("Authorization", "Bearer "+tc.token)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d", w.Code, tc.status)
			}
			if (body.reads > 0) != tc.bodyReads {
				t.Errorf("body read %d times, want reads: %v", body.reads, tc.bodyReads)
			}
		})
	}
}

// TestScopeRulesCopied checks that rules changed after RequireBearerToken
// have no effect, so that what a request needs is always decided by the
// same rules.
func TestScopeRulesCopied(t *testing.T) {
	rules := ScopeRules{Endpoint: []string{"mcp:basic"}, Tools: map[string][]string{"greet": {"mcp:basic"}}}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	h := mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: rules})(next)
	rules.Tools["whoami"] = []string{"profile:read"}
	rules.Endpoint[0] = "other"
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(legacyCall(2, "whoami")))
	r.Header.Set("Authorization", "Bearer alice-basic")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Errorf("status %d, want 200 under the rules as given", w.Code)
	}
}
