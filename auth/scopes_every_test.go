package auth

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestPerOperationScopes checks the scopes of what a POST acts on, which
// the MCP handler behind the middleware checks once it has decoded the
// body, in both eras: a token a scope short is refused before the tool
// runs, and ScopeRules.Func sees the method and name of each request.
func TestPerOperationScopes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		token   string
		legacy  bool
		tool    string
		status  int
		funcArg string // what ScopeRules.Func saw, "" when it has none
	}{
		{name: "every scope, 2026-07-28", token: "alice-all", tool: "whoami", status: http.StatusOK},
		{name: "every scope, legacy", token: "alice-all", legacy: true, tool: "whoami", status: http.StatusOK},
		{name: "a scope short, 2026-07-28", token: "alice-basic", tool: "whoami", status: http.StatusForbidden},
		{name: "a scope short, legacy", token: "alice-basic", legacy: true, tool: "whoami", status: http.StatusForbidden},
		{name: "a tool without rules", token: "alice-basic", legacy: true, tool: "greet", status: http.StatusOK},
		{name: "Func, 2026-07-28", token: "alice-all", tool: "greet", status: http.StatusOK, funcArg: "tools/call greet"},
		{name: "Func, legacy", token: "alice-all", legacy: true, tool: "greet", status: http.StatusOK, funcArg: "tools/call greet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs atomic.Int64
			var seen []string
			ts, _ := protected(t, func(o *RequireBearerTokenOptions) {
				if tc.funcArg != "" {
					o.Scopes.Func = func(method, name string) []string {
						seen = append(seen, method+" "+name)
						return nil
					}
				}
			}, &runs)
			auth := []string{"Authorization", "Bearer " + tc.token}
			body, hdr := modernCall(tc.tool), append(auth, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", tc.tool)
			if tc.legacy {
				resp, _ := post(t, ts.URL, legacyInit(1), auth...)
				hdr = append(auth, "Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"), "MCP-Protocol-Version", "2025-11-25")
				body = legacyCall(2, tc.tool)
				seen = nil
			}
			resp, b := post(t, ts.URL, body, hdr...)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if ran := runs.Load() == 1; ran != (tc.status == http.StatusOK) {
				t.Errorf("tool ran %d times", runs.Load())
			}
			if tc.funcArg != "" && (len(seen) != 1 || seen[0] != tc.funcArg) {
				t.Errorf("ScopeRules.Func saw %q, want %q", seen, tc.funcArg)
			}
		})
	}
}

// TestScopeRulesCopied checks that rules changed after RequireBearerToken
// have no effect, so that what a request needs is always decided by the
// same rules.
func TestScopeRulesCopied(t *testing.T) {
	rules := ScopeRules{Endpoint: []string{"mcp:basic"}, Tools: map[string][]string{"greet": {"mcp:basic"}, "other": {"x"}}}
	var runs atomic.Int64
	ts, _ := protected(t, func(o *RequireBearerTokenOptions) { o.Scopes = rules }, &runs)
	rules.Tools["whoami"] = []string{"profile:read"}
	rules.Endpoint[0] = "other"
	resp, body := post(t, ts.URL, modernCall("whoami"), "Authorization", "Bearer alice-basic",
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "whoami")
	if resp.StatusCode != http.StatusOK || runs.Load() != 1 {
		t.Errorf("status %d, want 200 under the rules as given: %s", resp.StatusCode, body)
	}
}

// TestSSEPerToolScopes: behind the middleware, the HTTP+SSE handler
// checks the scopes of each POSTed message too.
func TestSSEPerToolScopes(t *testing.T) {
	var runs atomic.Int64
	s := whoServer(&runs)
	h := mcp.NewSSEHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ts := httptest.NewServer(mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: testRules})(h))
	defer ts.Close()
	defer h.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer alice-basic")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	endpoint, err := br.ReadString('\n')
	for err == nil && !strings.HasPrefix(endpoint, "data: ") {
		endpoint, err = br.ReadString('\n')
	}
	endpoint = strings.TrimSpace(strings.TrimPrefix(endpoint, "data: "))
	if !strings.Contains(endpoint, "sessionId=") {
		t.Fatalf("no endpoint event: %q, %v", endpoint, err)
	}
	r, _ := post(t, ts.URL+endpoint, legacyCall(2, "whoami"), "Authorization", "Bearer alice-basic")
	if c := challengeOf(t, r.Header)["Bearer"]; r.StatusCode != http.StatusForbidden || c["scope"] != "mcp:basic profile:read" {
		t.Errorf("whoami without profile:read: %d %v", r.StatusCode, r.Header.Values("WWW-Authenticate"))
	}
	r, _ = post(t, ts.URL+endpoint, legacyCall(3, "greet"), "Authorization", "Bearer alice-basic")
	if r.StatusCode != http.StatusAccepted {
		t.Errorf("greet: %d", r.StatusCode)
	}
}
