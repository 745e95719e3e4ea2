package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRateLimitBurst: a principal's burst is served, the request after it
// gets 429 with Retry-After (the seconds until its bucket holds a request
// again), and another principal is not held back.
func TestRateLimitBurst(t *testing.T) {
	is, url, sink := startProtected(t, func(c *teamConfig) {
		c.rateLimit, c.rateBurst = 1.0/3600, 3 // one request an hour after the burst
	})
	alice, bob := mint(is, "alice", "pkgdocs:read", url), mint(is, "bob", "pkgdocs:read", url)
	for i := range 3 {
		if resp, body := post(t, url, alice); resp.StatusCode == http.StatusTooManyRequests {
			t.Fatalf("request %d of the burst: 429 %s", i+1, body)
		}
	}
	resp, body := post(t, url, alice)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("request after the burst: %d %s, want 429", resp.StatusCode, body)
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs < 3590 || secs > 3600 {
		t.Errorf("Retry-After %q, want about 3600 seconds", resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(body, "rate limit") {
		t.Errorf("429 body %q does not say why", body)
	}
	if resp, body := post(t, url, bob); resp.StatusCode == http.StatusTooManyRequests {
		t.Errorf("another user after alice's burst: 429 %s", body)
	}
	line := sink.await(t, "rate_limited=true")
	if !strings.Contains(line, "status=429") || !strings.Contains(line, "subject=alice") {
		t.Errorf("access log of the refused request: %s", line)
	}
}

// TestRateLimitWithoutOAuth: without tokens the principal is the client's
// address; --rate-limit 0 turns limits off.
func TestRateLimitWithoutOAuth(t *testing.T) {
	for _, tt := range []struct {
		rate   float64
		status int // of the third request
	}{{1.0 / 3600, http.StatusTooManyRequests}, {0, http.StatusOK}} {
		cfg := testTeamConfig(&logSink{})
		cfg.rateLimit, cfg.rateBurst = tt.rate, 2
		_, url := startTeam(t, newDemoService(t, newDemoProxy(t, false)), cfg, nil)
		var resp *http.Response
		for range 3 {
			resp, _ = post(t, url, "")
		}
		if resp.StatusCode != tt.status {
			t.Errorf("--rate-limit %v --rate-burst 2: third request %d", tt.rate, resp.StatusCode)
		}
	}
}

// TestRateLimiterBuckets drives the limiter on a clock of its own: buckets
// refill at the rate, and full ones are forgotten when the limiter sweeps.
func TestRateLimiterBuckets(t *testing.T) {
	l, err := newRateLimiter(2, 2) // two a second, bursts of two
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	l.now = func() time.Time { return now }
	steps := []struct {
		after     time.Duration
		principal string
		ok        bool
		wait      time.Duration
	}{
		{0, "a", true, 0},
		{0, "a", true, 0},
		{0, "a", false, 500 * time.Millisecond},
		{0, "b", true, 0},
		{250 * time.Millisecond, "a", false, 250 * time.Millisecond},
		{250 * time.Millisecond, "a", true, 0},
		{0, "a", false, 500 * time.Millisecond},
	}
	for i, s := range steps {
		now = now.Add(s.after)
		ok, wait := l.allow(s.principal)
		if ok != s.ok || wait != s.wait {
			t.Errorf("step %d (%s after %v): allow = %v, %v; want %v, %v", i, s.principal, s.after, ok, wait, s.ok, s.wait)
		}
	}
	// A sweep keeps a bucket still refilling and forgets full ones.
	now = now.Add(time.Second) // every bucket is full again
	l.allow("a")
	l.mu.Lock()
	l.sweep(now)
	_, keptA := l.buckets["a"]
	_, keptB := l.buckets["b"]
	l.mu.Unlock()
	if !keptA || keptB {
		t.Errorf("after the sweep: a kept %v (want true: it is refilling), b kept %v (want false: full)", keptA, keptB)
	}
}

// TestRateLimiterBounded: principals that come once and go do not pile
// up: the limiter holds about as many buckets as are refilling.
func TestRateLimiterBounded(t *testing.T) {
	l, err := newRateLimiter(1000, 1) // a bucket refills in 1 ms
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	l.now = func() time.Time { return now }
	for i := range 100 * sweepFloor {
		now = now.Add(time.Millisecond)
		l.allow(strconv.Itoa(i))
	}
	if n := len(l.buckets); n > 2*sweepFloor {
		t.Errorf("%d buckets kept for %d principals that each came once", n, 100*sweepFloor)
	}
}
