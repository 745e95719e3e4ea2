package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sharedNoncesAt returns a shared nonce source of key and period whose
// clock reads *now.
func sharedNoncesAt(t testing.TB, key []byte, period time.Duration, now *time.Time) *sharedNonces {
	t.Helper()
	src, err := NewSharedDPoPNonces(key, period)
	if err != nil {
		t.Fatal(err)
	}
	s := src.(*sharedNonces)
	s.now = func() time.Time { return *now }
	return s
}

func randomKey(t testing.TB) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSharedDPoPNonces(t *testing.T) {
	const period = time.Minute
	key := randomKey(t)
	start := time.Unix(1_800_000_000, 0).Truncate(period) // a window's start
	nowA, nowB, nowC := start.Add(time.Second), start.Add(time.Second), start.Add(time.Second)
	a := sharedNoncesAt(t, key, period, &nowA)
	b := sharedNoncesAt(t, key, period, &nowB)
	other := sharedNoncesAt(t, randomKey(t), period, &nowC)

	n0 := a.Nonce()
	if n0 == "" || b.Nonce() != n0 || !b.Valid(n0) || !a.Valid(n0) {
		t.Fatalf("two sources with one key disagree: %q %q", n0, b.Nonce())
	}
	if other.Nonce() == n0 || other.Valid(n0) || a.Valid(other.Nonce()) {
		t.Fatal("sources with different keys agree")
	}
	for _, bad := range []string{"", "x", n0 + "A", strings.ToUpper(n0), n0[:len(n0)-1] + "A"} {
		if bad != n0 && a.Valid(bad) {
			t.Errorf("Valid(%q) = true", bad)
		}
	}

	// The nonce changes with the window; the previous one stays valid for
	// one more period, and no longer.
	nowA, nowB = start.Add(period+time.Second), start.Add(period+time.Second)
	n1 := a.Nonce()
	if n1 == n0 || b.Nonce() != n1 {
		t.Fatalf("after a period: nonce %q (was %q), other instance %q", n1, n0, b.Nonce())
	}
	if !a.Valid(n0) || !a.Valid(n1) {
		t.Error("the current or the previous nonce is refused")
	}
	nowA = start.Add(2*period + time.Second)
	if a.Valid(n0) {
		t.Error("a nonce two windows old is accepted")
	}
	if !a.Valid(n1) {
		t.Error("the previous nonce is refused")
	}

	// Clock skew between instances: the nonce of an instance a little
	// ahead, already in the next window, is accepted by one still at the
	// end of the previous window, but not long before.
	nowA, nowB = start.Add(2*period+5*time.Second), start.Add(2*period-5*time.Second)
	n2 := a.Nonce()
	if !b.Valid(n2) {
		t.Error("the next window's nonce is refused 5s before the window starts")
	}
	nowB = start.Add(2*period - DefaultClockSkew - time.Second)
	if b.Valid(n2) {
		t.Errorf("the next window's nonce is accepted %v before the window starts", DefaultClockSkew+time.Second)
	}
}

func TestNewSharedDPoPNoncesBadInput(t *testing.T) {
	for _, tt := range []struct {
		name   string
		key    []byte
		period time.Duration
		want   string
	}{
		{"no key", nil, time.Minute, "32 bytes"},
		{"short key", make([]byte, 31), time.Minute, "32 bytes"},
		{"negative period", make([]byte, 32), -time.Minute, "at least a second"},
		{"tiny period", make([]byte, 32), time.Millisecond, "at least a second"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewSharedDPoPNonces(tt.key, tt.period); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	key := make([]byte, 32)
	s, err := NewSharedDPoPNonces(key, 0)
	if err != nil || s.(*sharedNonces).period != time.Minute {
		t.Fatalf("period 0: %v", err)
	}
	key[0] = 1 // the source keeps its own copy of the key
	now := time.Now()
	s.(*sharedNonces).now = func() time.Time { return now }
	if zero := sharedNoncesAt(t, make([]byte, 32), time.Minute, &now); zero.Nonce() != s.Nonce() {
		t.Error("changing the caller's key slice changed the nonces")
	}
}

// FuzzSharedDPoPNonceValid checks that Valid accepts exactly the nonces of
// the previous and current windows (and the next one near its start).
func FuzzSharedDPoPNonceValid(f *testing.F) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1_800_000_000, 0)
	s := sharedNoncesAt(f, key, time.Minute, &now)
	f.Add(s.Nonce(), int64(0))
	f.Add(s.nonceOf(now.Unix()/60-1), int64(59))
	f.Add(s.nonceOf(now.Unix()/60+1), int64(45))
	f.Add("", int64(10))
	f.Add(strings.Repeat("A", 24), int64(-1))
	f.Fuzz(func(t *testing.T, nonce string, sec int64) {
		at := now.Add(time.Duration(sec%600) * time.Second)
		s := sharedNoncesAt(t, key, time.Minute, &at)
		n := at.Unix() / 60 // at is after 1970
		want := nonce == s.nonceOf(n) || nonce == s.nonceOf(n-1) ||
			nonce == s.nonceOf(n+1) && at.Unix()-n*60 >= 30
		if got := s.Valid(nonce); got != want {
			t.Errorf("Valid(%q) at %v = %v, want %v", nonce, at, got, want)
		}
		if !s.Valid(s.Nonce()) {
			t.Error("the current nonce is refused")
		}
	})
}

func TestMemoryDPoPReplayCacheBounded(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	c := NewMemoryDPoPReplayCache(4)
	c.now = func() time.Time { return now }
	ctx := context.Background()
	seen := func(k string, exp time.Time) (bool, error) { return c.Seen(ctx, k, exp) }
	for i := range 4 {
		// Expiries out of order: the cache forgets each at its own time.
		if r, err := seen(fmt.Sprint(i), now.Add(time.Duration(4-i)*time.Minute)); r || err != nil {
			t.Fatalf("new key %d: %v %v", i, r, err)
		}
	}
	if r, err := seen("0", now.Add(time.Hour)); !r || err != nil {
		t.Errorf("a recorded key: %v %v", r, err)
	}
	if _, err := seen("5", now.Add(time.Minute)); !errors.Is(err, errReplayCacheFull) {
		t.Errorf("full cache: err = %v", err)
	}
	now = now.Add(90 * time.Second) // key 3 (1 min) expired, the others not
	if r, err := seen("3", now.Add(time.Minute)); r || err != nil {
		t.Errorf("an expired key: %v %v, want new", r, err)
	}
	if r, err := seen("2", now.Add(time.Minute)); !r || err != nil {
		t.Errorf("an unexpired key: %v %v, want seen", r, err)
	}
	now = now.Add(time.Minute) // keys 2 and 3 expired
	if r, err := seen("5", now.Add(time.Minute)); r || err != nil {
		t.Errorf("after expiries: %v %v", r, err)
	}
	if r, err := seen("past", now.Add(-time.Second)); r || err != nil || len(c.seen) != 3 {
		t.Errorf("a key already expired: %v %v, %d keys held", r, err, len(c.seen))
	}
}

func TestDPoPReplayKey(t *testing.T) {
	k := dpopReplayKey("jkt-a", "jti")
	if len(k) != 43 || strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		t.Errorf("key %q is not 43 characters of base64url", k)
	}
	if k == dpopReplayKey("jkt-b", "jti") || k != dpopReplayKey("jkt-a", "jti") || dpopReplayKey("a", "bc") == dpopReplayKey("ab", "c") {
		t.Error("keys of different (jkt, jti) collide, or one pair has two keys")
	}
}

// sharedTestResource is the canonical URL of the endpoint the instances of
// the tests below serve, as a load balancer in front of them would be.
const sharedTestResource = "https://mcp.example.com/mcp"

// dpopInstance starts a protected server ("an instance") with opts and
// returns its URL.
func dpopInstance(t *testing.T, c *dpopClient, opts *DPoPOptions) string {
	v := TokenVerifierFunc(func(ctx context.Context, token string) (*TokenInfo, error) {
		if token == "bound" {
			return &TokenInfo{Subject: "dave", JKT: c.jkt}, nil
		}
		return nil, invalid("unknown token")
	})
	var url string
	protectedWith(t, v, &RequireBearerTokenOptions{Resource: sharedTestResource, DPoP: opts}, &url)
	return url
}

// sendDPoP posts an initialize request to url with the token "bound" and
// proof.
func sendDPoP(t *testing.T, url, proof string) *http.Response {
	resp, _ := post(t, url, legacyInit(1), "Authorization", "DPoP bound", "DPoP", proof)
	return resp
}

// withNonce sets a proof's nonce claim.
func withNonce(n string) func(map[string]any) { return func(m map[string]any) { m["nonce"] = n } }

// TestDPoPSeveralInstances runs two instances of a server as behind a
// round-robin load balancer: with a shared nonce key and one replay cache
// they act as one; with the per-process defaults they do not.
func TestDPoPSeveralInstances(t *testing.T) {
	c := newDPoPClient(t)
	key := randomKey(t)
	cache := NewMemoryDPoPReplayCache(0) // stands in for a store both instances reach
	instance := func() string {
		nonces, err := NewSharedDPoPNonces(key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return dpopInstance(t, c, &DPoPOptions{Nonce: nonces, ReplayCache: cache})
	}
	a, b := instance(), instance()

	resp := sendDPoP(t, a, c.proof(t, "POST", sharedTestResource, "bound", nil))
	nonce := resp.Header.Get("DPoP-Nonce")
	if resp.StatusCode != http.StatusUnauthorized || nonce == "" {
		t.Fatalf("A, proof without nonce: %d, nonce %q", resp.StatusCode, nonce)
	}
	if resp := sendDPoP(t, b, c.proof(t, "POST", sharedTestResource, "bound", withNonce(nonce))); resp.StatusCode != http.StatusOK {
		t.Fatalf("B, nonce from A: %d %v", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	} else if resp.Header.Get("DPoP-Nonce") != nonce {
		t.Errorf("B hands out %q, A %q", resp.Header.Get("DPoP-Nonce"), nonce)
	}
	proof := c.proof(t, "POST", sharedTestResource, "bound", withNonce(nonce))
	if resp := sendDPoP(t, a, proof); resp.StatusCode != http.StatusOK {
		t.Fatalf("A, fresh proof: %d", resp.StatusCode)
	}
	resp = sendDPoP(t, b, proof)
	if ch := challengeOf(t, resp.Header)["DPoP"]; resp.StatusCode != http.StatusUnauthorized || !strings.Contains(ch["error_description"], "replayed") {
		t.Errorf("B, proof replayed from A: %d %v", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}

	// The per-process defaults: each instance has its own nonces and
	// remembers only the proofs it saw.
	pa := dpopInstance(t, c, &DPoPOptions{Nonce: NewDPoPNonces(time.Minute)})
	pb := dpopInstance(t, c, &DPoPOptions{Nonce: NewDPoPNonces(time.Minute)})
	nonce = sendDPoP(t, pa, c.proof(t, "POST", sharedTestResource, "bound", nil)).Header.Get("DPoP-Nonce")
	if resp := sendDPoP(t, pb, c.proof(t, "POST", sharedTestResource, "bound", withNonce(nonce))); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("per-process nonces: B accepted A's nonce (%d)", resp.StatusCode)
	}
}

// failingCache is a DPoPReplayCache whose store fails (or answers), and
// which records what it was asked.
type failingCache struct {
	err error
	mu  sync.Mutex
	key string
	exp time.Time
	ctx context.Context
}

func (f *failingCache) Seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.key, f.exp, f.ctx = key, expires, ctx
	return false, f.err
}

func TestDPoPReplayCacheFailsClosed(t *testing.T) {
	c := newDPoPClient(t)
	cache := &failingCache{err: errors.New("connection refused")}
	url := dpopInstance(t, c, &DPoPOptions{ReplayCache: cache})
	iat := time.Now().Add(-10 * time.Second).Unix()
	proof := c.proof(t, "POST", sharedTestResource, "bound", func(m map[string]any) { m["iat"], m["jti"] = iat, "the-jti" })
	before := time.Now()
	resp, body := post(t, url, legacyInit(1), "Authorization", "DPoP bound", "DPoP", proof)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || strings.Contains(body, "protocolVersion") {
		t.Fatalf("replay cache down: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if cache.key != dpopReplayKey(c.jkt, "the-jti") {
		t.Errorf("key %q, want the hash of jkt and jti", cache.key)
	}
	if want := time.Unix(iat, 0).Add(DefaultDPoPMaxAge + DefaultClockSkew); !cache.exp.Equal(want) {
		t.Errorf("expires %v, want iat+MaxAge+ClockSkew %v", cache.exp, want)
	}
	if dl, ok := cache.ctx.Deadline(); !ok || dl.Sub(before) > DPoPReplayTimeout+time.Second {
		t.Errorf("context deadline %v (set %v), want within %v", dl, ok, DPoPReplayTimeout)
	}
	// The same cache answering: the request passes.
	cache.err = nil
	cache.mu.Unlock()
	resp = sendDPoP(t, url, c.proof(t, "POST", sharedTestResource, "bound", nil))
	cache.mu.Lock()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("replay cache up: %d", resp.StatusCode)
	}
}

// TestSharedDPoPNoncesAllocs checks that handing out and checking nonces
// allocates nothing once a window's nonces are computed.
func TestSharedDPoPNoncesAllocs(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := sharedNoncesAt(t, randomKey(t), time.Minute, &now)
	n := s.Nonce()
	if a := leastAllocs(100, func() {
		if s.Nonce() != n || !s.Valid(n) || s.Valid("AAAAAAAAAAAAAAAAAAAAAAAA") {
			t.Fatal("nonce changed")
		}
	}); a != 0 {
		t.Errorf("%v allocations per Nonce and two Valid calls, want 0", a)
	}
}

func BenchmarkSharedDPoPNonceValid(b *testing.B) {
	s, _ := NewSharedDPoPNonces(randomKey(b), time.Minute)
	n := s.Nonce()
	b.ReportAllocs()
	for b.Loop() {
		if !s.Valid(n) {
			b.Fatal("refused")
		}
	}
}

func BenchmarkMemoryDPoPReplayCacheSeen(b *testing.B) {
	c := NewMemoryDPoPReplayCache(1 << 20)
	ctx := context.Background()
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = dpopReplayKey("jkt", fmt.Sprint(i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Keys live a millisecond, so the cache stays small.
		if _, err := c.Seen(ctx, keys[i%len(keys)], time.Now().Add(time.Millisecond)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// A proof is recorded in the replay cache only once the token it comes
// with is good and bound to its key: a request with a bad token leaves
// nothing behind, and the same proof with the right token then passes.
func TestDPoPReplayRecordedOnlyWithAGoodToken(t *testing.T) {
	c := newDPoPClient(t)
	cache := NewMemoryDPoPReplayCache(16)
	counted := &countingCache{DPoPReplayCache: cache}
	url := dpopInstance(t, c, &DPoPOptions{ReplayCache: counted})
	proofFor := func(token string) string {
		return c.proof(t, "POST", sharedTestResource, token, func(m map[string]any) { m["jti"] = "one-jti" })
	}
	resp, _ := post(t, url, legacyInit(1), "Authorization", "DPoP forged", "DPoP", proofFor("forged"))
	if resp.StatusCode != http.StatusUnauthorized || counted.calls.Load() != 0 {
		t.Fatalf("bad token: %d, replay cache asked %d times; want 401 and never", resp.StatusCode, counted.calls.Load())
	}
	proof := proofFor("bound")
	if resp := sendDPoP(t, url, proof); resp.StatusCode != http.StatusOK {
		t.Fatalf("good token: %d", resp.StatusCode)
	}
	if resp := sendDPoP(t, url, proof); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("replayed proof: %d, want 401", resp.StatusCode)
	}
}

// countingCache counts the calls to a DPoPReplayCache.
type countingCache struct {
	DPoPReplayCache
	calls atomic.Int64
}

func (c *countingCache) Seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	c.calls.Add(1)
	return c.DPoPReplayCache.Seen(ctx, key, expires)
}
