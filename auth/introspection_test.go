package auth

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestIntrospectionVerifier(t *testing.T) {
	as := newTestAS(t)
	calls := 0
	now := time.Now()
	as.introspect = func(token string) map[string]any {
		calls++
		base := map[string]any{"active": true, "sub": "alice", "client_id": "c1", "scope": "mcp:basic profile:read",
			"aud": testResource, "iss": as.issuer, "exp": now.Unix() + 3600, "cnf": map[string]any{"jkt": "tp"}}
		return introspectionAnswer(token, base, now)
	}
	clock := now
	v, err := NewIntrospectionVerifier(&IntrospectionVerifierOptions{Issuer: as.issuer, Audience: testResource,
		ClientID: "rs", ClientSecret: "s3cret", now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ti, err := v.VerifyToken(ctx, "good")
	if err != nil || ti.Subject != "alice" || ti.ClientID != "c1" || !ti.HasScope("profile:read") || ti.JKT != "tp" {
		t.Fatalf("good: %v %+v", err, ti)
	}
	if _, err := v.VerifyToken(ctx, "good"); err != nil || calls != 1 {
		t.Errorf("second call introspected again (%d calls): %v", calls, err)
	}
	// The cache does not outlive the answer's TTL...
	clock = now.Add(2 * time.Minute)
	v.VerifyToken(ctx, "good")
	if calls != 2 {
		t.Errorf("answer reused past the cache TTL (%d calls)", calls)
	}
	// ...nor the token's expiry.
	clock = now
	if _, err := v.VerifyToken(ctx, "short"); err != nil {
		t.Fatal(err)
	}
	clock = now.Add(10 * time.Second)
	if _, err := v.VerifyToken(ctx, "short"); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("expired token from the cache: %v", err)
	}
	clock = now
	if ti, err := v.VerifyToken(ctx, "username-only"); err != nil || ti.Subject != "bob" {
		t.Errorf("username-only: %v %+v", err, ti)
	}
	for _, tok := range []string{"inactive", "other-aud", "no-aud", "other-iss", "expired"} {
		if _, err := v.VerifyToken(ctx, tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s: %v, want ErrInvalidToken", tok, err)
		}
	}
	// A refused token repeated within the refusal TTL costs no new
	// introspection.
	n := calls
	for range 5 {
		if _, err := v.VerifyToken(ctx, "inactive"); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("repeated inactive: %v", err)
		}
	}
	if calls != n {
		t.Errorf("%d introspections for a repeated refused token", calls-n)
	}
	// Bad client credentials: the endpoint answers 401, which is not the
	// token's fault.
	bad, _ := NewIntrospectionVerifier(&IntrospectionVerifierOptions{Endpoint: as.issuer + "/introspect", Audience: testResource, ClientID: "rs", ClientSecret: "wrong"})
	if _, err := bad.VerifyToken(ctx, "good"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("bad credentials: %v", err)
	}
	// AcceptMissingAudience.
	lax, _ := NewIntrospectionVerifier(&IntrospectionVerifierOptions{Endpoint: as.issuer + "/introspect", Audience: testResource, ClientID: "rs", ClientSecret: "s3cret", AcceptMissingAudience: true})
	if _, err := lax.VerifyToken(ctx, "no-aud"); err != nil {
		t.Errorf("no-aud with AcceptMissingAudience: %v", err)
	}
}

// introspectionAnswer is what the test authorization server answers for
// the tokens of TestIntrospectionVerifier: base (an active token) altered as
// the token's name says, or inactive for a token it does not know.
func introspectionAnswer(token string, base map[string]any, now time.Time) map[string]any {
	switch token {
	case "good":
		return base
	case "short":
		base["exp"] = now.Unix() + 5
		return base
	case "other-aud":
		base["aud"] = "https://other.example.com"
		return base
	case "no-aud":
		delete(base, "aud")
		return base
	case "other-iss":
		base["iss"] = "https://evil.example.com"
		return base
	case "expired":
		base["exp"] = now.Unix() - 5
		return base
	case "username-only":
		delete(base, "sub")
		base["username"] = "bob"
		return base
	}
	return map[string]any{"active": false}
}

func TestIntrospectionVerifierDown(t *testing.T) {
	as := newTestAS(t)
	as.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Second)
	})
	v, _ := NewIntrospectionVerifier(&IntrospectionVerifierOptions{Endpoint: as.issuer + "/introspect", Audience: testResource, Timeout: 100 * time.Millisecond})
	start := time.Now()
	if _, err := v.VerifyToken(context.Background(), "good"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("slow endpoint: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("waited %v, timeout 100ms", d)
	}
}

// Concurrent requests with one new token share one introspection; a
// request that gives up while waiting gets an unavailable error, and the
// others still get the answer.
func TestIntrospectionCoalesced(t *testing.T) {
	as := newTestAS(t)
	var calls atomic.Int64
	release := make(chan struct{})
	as.introspect = func(token string) map[string]any {
		calls.Add(1)
		<-release
		return map[string]any{"active": true, "sub": "alice", "aud": testResource, "iss": as.issuer, "exp": time.Now().Unix() + 3600}
	}
	v, err := NewIntrospectionVerifier(&IntrospectionVerifierOptions{Issuer: as.issuer, Audience: testResource, ClientID: "rs", ClientSecret: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	results := make(chan error, n)
	for range n {
		go func() {
			ti, err := v.VerifyToken(context.Background(), "new-token")
			if err == nil && ti.Subject != "alice" {
				err = errors.New("wrong subject " + ti.Subject)
			}
			results <- err
		}()
	}
	for deadline := time.Now().Add(5 * time.Second); calls.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no introspection started")
		}
	}
	// Started once the introspection is under way, so that it waits for
	// it rather than leads it.
	impatient, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() {
		_, err := v.VerifyToken(impatient, "new-token")
		gaveUp <- err
	}()
	cancel()
	if err := <-gaveUp; !errors.Is(err, ErrUnavailable) {
		t.Errorf("a caller that gave up: %v, want ErrUnavailable", err)
	}
	close(release)
	for range n {
		if err := <-results; err != nil {
			t.Error(err)
		}
	}
	if c := calls.Load(); c != 1 {
		t.Errorf("%d introspections for one token, want 1", c)
	}
}
