package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// cachedEras are the requests of BenchmarkRequireBearerTokenCached and
// TestRequireBearerTokenAllocs: a tools/call whose token is already in the
// verifier's cache, modern (scopes from the Mcp-Method and Mcp-Name
// headers) and legacy (a session bound to its principal). The token holds
// every scope the rules name, except in the -check requests, where a rule
// for another tool names a scope it lacks, so the middleware hands the MCP
// handler the check of the tool called (mcp.WithAuthorize).
var cachedEras = []string{"modern", "legacy", "modern-check", "legacy-check"}

// cachedRequest returns the middleware around a handler that checks it got
// the TokenInfo, and a request of era whose body serve resets.
func cachedRequest(tb testing.TB, era string) (h http.Handler, r *http.Request, reset func()) {
	as := newTestAS(tb)
	v := newTestVerifier(tb, as, nil)
	tok := as.mint(tb, "ES256", as.claims(testResource, "alice", "mcp:basic mcp:call"))
	if _, err := v.VerifyToken(context.Background(), tok); err != nil {
		tb.Fatal(err)
	}
	rules := ScopeRules{Endpoint: []string{"mcp:basic"}, Tools: map[string][]string{"echo": {"mcp:call"}}}
	if strings.HasSuffix(era, "-check") {
		rules.Tools = map[string][]string{"echo": {"mcp:call"}, "admin": {"mcp:admin"}}
	}
	noop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if TokenInfoFromContext(r.Context()) == nil {
			tb.Fatal("no TokenInfo")
		}
	})
	bh := mustProtect(tb, v, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: rules})(noop).(*bearerHandler)
	body := modernCall("echo")
	hdr := http.Header{"Authorization": {"Bearer " + tok}, "Content-Type": {"application/json"}}
	if strings.HasPrefix(era, "modern") {
		hdr["Mcp-Protocol-Version"] = []string{"2026-07-28"}
		hdr["Mcp-Method"] = []string{"tools/call"}
		hdr["Mcp-Name"] = []string{"echo"}
	} else {
		body = legacyCall(2, "echo")
		hdr["Mcp-Session-Id"] = []string{"s1"}
	}
	rd := strings.NewReader(body)
	r = httptest.NewRequest(http.MethodPost, "/mcp", rd)
	r.Header = hdr
	return bh, r, func() {
		rd.Reset(body)
		r.Body = readCloser{rd}
	}
}

// BenchmarkRequireBearerTokenCached is the cost of the middleware alone
// (around a handler that does nothing) for the requests of cachedEras.
func BenchmarkRequireBearerTokenCached(b *testing.B) {
	for _, era := range cachedEras {
		b.Run(era, func(b *testing.B) {
			h, r, reset := cachedRequest(b, era)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for range b.N {
				reset()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
