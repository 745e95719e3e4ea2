package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRequireBearerTokenCached is the cost of the middleware alone
// (around a handler that does nothing) for a tools/call whose token is
// already in the verifier's cache: modern (scopes from the Mcp-Method and
// Mcp-Name headers) and legacy (a session bound to its principal). The
// token holds every scope the rules name, except in legacy-body, where a
// rule for another tool names a scope it lacks, so the middleware reads the
// body to find the tool called.
func BenchmarkRequireBearerTokenCached(b *testing.B) {
	as := newTestAS(b)
	v := newTestVerifier(b, as, nil)
	tok := as.mint(b, "ES256", as.claims(testResource, "alice", "mcp:basic mcp:call"))
	if _, err := v.VerifyToken(context.Background(), tok); err != nil {
		b.Fatal(err)
	}
	rules := ScopeRules{Endpoint: []string{"mcp:basic"}, Tools: map[string][]string{"echo": {"mcp:call"}}}
	noop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if TokenInfoFromContext(r.Context()) == nil {
			b.Fatal("no TokenInfo")
		}
	})
	for _, era := range []string{"modern", "legacy", "legacy-body"} {
		b.Run(era, func(b *testing.B) {
			rules := rules
			if era == "legacy-body" {
				rules.Tools = map[string][]string{"echo": {"mcp:call"}, "admin": {"mcp:admin"}}
			}
			bh := RequireBearerToken(v, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: rules})(noop).(*bearerHandler)
			body := modernCall("echo")
			hdr := http.Header{"Authorization": {"Bearer " + tok}, "Content-Type": {"application/json"}}
			if era == "modern" {
				hdr["Mcp-Protocol-Version"] = []string{"2026-07-28"}
				hdr["Mcp-Method"] = []string{"tools/call"}
				hdr["Mcp-Name"] = []string{"echo"}
			} else {
				body = legacyCall(2, "echo")
				bh.sessions.bind("s1", principal{as.issuer, "alice", "client-1"}, mcpNow())
				hdr["Mcp-Session-Id"] = []string{"s1"}
			}
			rd := strings.NewReader(body)
			r := httptest.NewRequest(http.MethodPost, "/mcp", rd)
			r.Header = hdr
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for range b.N {
				rd.Reset(body)
				r.Body = http.NoBody
				r.Body = readCloser{rd}
				bh.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
