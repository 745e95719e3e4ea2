package auth

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRequireBearerTokenAllocs holds the middleware to two allocations
// (the request passed on, with its context: withTokenInfo; and the
// context value naming its principal, as the session owner of a legacy
// request) for a request whose token is in the verifier's cache, in both
// eras; a request whose tool's scopes the MCP handler checks has one
// more, the context carrying the check (mcp.WithAuthorize). The
// middleware never reads the body.
func TestRequireBearerTokenAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector; BenchmarkRequireBearerTokenCached reports them")
	}
	budgets := map[string]float64{"modern": 2, "legacy": 2, "modern-check": 3, "legacy-check": 3}
	for _, era := range cachedEras {
		budget := budgets[era]
		t.Run(era, func(t *testing.T) {
			h, r, reset := cachedRequest(t, era)
			w := httptest.NewRecorder()
			serve := func() {
				reset()
				h.ServeHTTP(w, r)
			}
			serve() // the pools filled
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if n := leastAllocs(200, serve); n > budget {
				t.Errorf("%v allocations per request, want at most %v", n, budget)
			}
		})
	}
}
