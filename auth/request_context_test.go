package auth

import (
	"context"
	"errors"
	"github.com/gomcp/sdk/mcp"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

type otherKey struct{}

// TestWithTokenInfo: the request passed on carries the TokenInfo and
// otherwise behaves as r.WithContext(context.WithValue(...)) would, and r
// itself is left alone.
func TestWithTokenInfo(t *testing.T) {
	ti := &TokenInfo{Subject: "alice-secret-subject"}
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), otherKey{}, "other"))
	deadline := time.Now().Add(time.Hour)
	parent, cancelDeadline := context.WithDeadline(parent, deadline)
	defer cancelDeadline()
	r := httptest.NewRequest(http.MethodPost, "/mcp?x=1", strings.NewReader("{}")).WithContext(parent)
	r.Header.Set("Mcp-Session-Id", "s1")
	r2 := withTokenInfo(r, ti, "owner-1", true, nil)
	ctx := r2.Context()

	checks := []struct {
		name string
		ok   bool
	}{
		{"a copy, not r", r2 != r},
		{"r keeps its context", r.Context() == parent && TokenInfoFromContext(r.Context()) == nil},
		{"TokenInfoFromContext", TokenInfoFromContext(ctx) == ti},
		{"the key's value", ctx.Value(tokenInfoKey{}) == ti},
		{"the parent's values", ctx.Value(otherKey{}) == "other"},
		{"the session owner", mcp.SessionOwnerFromContext(ctx) == "owner-1"},
		{"the principal", mcp.PrincipalFromContext(ctx) == "owner-1"},
		{"no value for unknown keys", ctx.Value("nothing") == nil},
		{"the same request otherwise", r2.Method == r.Method && r2.URL == r.URL && r2.Body == r.Body && r2.Header.Get("Mcp-Session-Id") == "s1"},
		{"the parent's deadline", func() bool { d, ok := ctx.Deadline(); return ok && d.Equal(deadline) }()},
		{"not done yet", ctx.Err() == nil},
		{"WithoutCancel keeps the TokenInfo", TokenInfoFromContext(context.WithoutCancel(ctx)) == ti},
		{"a child keeps the TokenInfo", TokenInfoFromContext(context.WithValue(ctx, otherKey{}, 2)) == ti},
		{"String leaves the TokenInfo out", !strings.Contains(ctx.(interface{ String() string }).String(), ti.Subject)},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no", c.name)
		}
	}

	// Children are cancelled through the parent's own cancelCtx, as with
	// context.WithValue, not by a goroutine each.
	before := runtime.NumGoroutine()
	var cancels []context.CancelFunc
	for range 100 {
		_, c := context.WithCancel(ctx)
		cancels = append(cancels, c)
	}
	if n := runtime.NumGoroutine() - before; n >= 50 {
		t.Errorf("%d goroutines started for 100 children", n)
	}
	for _, c := range cancels {
		c()
	}
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	stop := context.AfterFunc(ctx, func() {})
	defer stop()
	cause := errors.New("client gone")
	cancel(cause)
	for _, c := range []context.Context{ctx, child} {
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("cancelling the parent did not reach the request's context")
		}
		if !errors.Is(c.Err(), context.Canceled) || context.Cause(c) != cause {
			t.Errorf("Err %v, Cause %v; want Canceled and %v", c.Err(), context.Cause(c), cause)
		}
	}
}

// TestWithTokenInfoOneAllocation: the request copy and its context are
// one allocation.
func TestWithTokenInfoOneAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector; BenchmarkRequireBearerTokenCached reports them")
	}
	ti := &TokenInfo{Subject: "alice"}
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	var sink *http.Request
	if n := leastAllocs(100, func() { sink = withTokenInfo(r, ti, "", false, nil) }); n != 1 {
		t.Errorf("withTokenInfo: %v allocations, want 1", n)
	}
	_ = sink
}
