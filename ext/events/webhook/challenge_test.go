package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// echo answers a verification challenge as a correct endpoint does.
func echo(_ int, w http.ResponseWriter, h hit) {
	var env struct{ Type, Challenge string }
	if json.Unmarshal(h.body, &env) != nil || env.Type != "verification" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"challenge":"` + env.Challenge + `"}`))
}

// TestChallenge: the endpoint must echo the nonce in a 2xx answer; any
// other answer is challenge_failed, and an unreachable endpoint has its
// transport category.
func TestChallenge(t *testing.T) {
	tests := []struct {
		name   string
		answer answerFunc
		want   Category
	}{
		{"echo", echo, ""},
		{"echo with 201", func(n int, w http.ResponseWriter, h hit) {
			var env struct{ Challenge string }
			_ = json.Unmarshal(h.body, &env)
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"challenge":"` + env.Challenge + `"}`))
		}, ""},
		{"wrong echo", func(_ int, w http.ResponseWriter, _ hit) { _, _ = w.Write([]byte(`{"challenge":"guess"}`)) }, CategoryChallengeFailed},
		{"empty 200", func(_ int, w http.ResponseWriter, _ hit) {}, CategoryChallengeFailed},
		{"204", func(_ int, w http.ResponseWriter, _ hit) { w.WriteHeader(http.StatusNoContent) }, CategoryChallengeFailed},
		{"not JSON", func(_ int, w http.ResponseWriter, _ hit) { _, _ = w.Write([]byte(`ok`)) }, CategoryChallengeFailed},
		{"echo in a 404", func(n int, w http.ResponseWriter, h hit) {
			var env struct{ Challenge string }
			_ = json.Unmarshal(h.body, &env)
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"challenge":"` + env.Challenge + `"}`))
		}, CategoryChallengeFailed},
		{"500", func(_ int, w http.ResponseWriter, _ hit) { w.WriteHeader(http.StatusInternalServerError) }, CategoryChallengeFailed},
		{"huge answer", func(_ int, w http.ResponseWriter, _ hit) {
			_, _ = w.Write([]byte(`{"challenge":"` + strings.Repeat("a", 8000) + `"}`))
		}, CategoryChallengeFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, tt.answer)
			s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
			secret := GenerateSecret()
			err := s.Challenge(context.Background(), e.srv.URL, "sub-1", []Secret{secret})
			if got := CategoryOf(err); got != tt.want || (tt.want == "") != (err == nil) {
				t.Fatalf("Challenge = %v (%q), want %q", err, got, tt.want)
			}
			hits := e.recorded()
			if len(hits) != 1 {
				t.Fatalf("%d requests, want one attempt", len(hits))
			}
			h := hits[0]
			if !strings.HasPrefix(h.header.Get("webhook-id"), "msg_verification_") || h.header.Get("X-MCP-Subscription-Id") != "sub-1" {
				t.Fatalf("headers %v", h.header)
			}
			verifyIndependently(t, h, secret.Reveal())
		})
	}
}

// TestChallengeNonceSingleUse: every challenge has a new nonce, so an echo
// recorded from an earlier one does not pass.
func TestChallengeNonceSingleUse(t *testing.T) {
	var first string
	e := newEndpoint(t, func(n int, w http.ResponseWriter, h hit) {
		var env struct{ Challenge string }
		_ = json.Unmarshal(h.body, &env)
		if n == 1 {
			first = env.Challenge
		}
		_, _ = w.Write([]byte(`{"challenge":"` + first + `"}`)) // always the first nonce
	})
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	if err := s.Challenge(context.Background(), e.srv.URL, "sub-1", []Secret{GenerateSecret()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Challenge(context.Background(), e.srv.URL, "sub-1", []Secret{GenerateSecret()}); CategoryOf(err) != CategoryChallengeFailed {
		t.Fatalf("a replayed echo = %v, want challenge_failed", err)
	}
}

// TestVerifyEndpointBeforeFirstEvent: the first request an endpoint gets
// is the challenge; the verification is then kept per (principal, url), so
// a second subscription of the same principal to the same URL is not
// challenged again, and another principal is.
func TestVerifyEndpointBeforeFirstEvent(t *testing.T) {
	e := newEndpoint(t, func(n int, w http.ResponseWriter, h hit) {
		if strings.Contains(string(h.body), `"type":"verification"`) {
			echo(n, w, h)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	reg := NewMemoryRegistry(nil)
	ctx := context.Background()
	secret := GenerateSecret()
	deliver := func(principal string) error {
		if err := VerifyEndpoint(ctx, s, reg, principal, e.srv.URL, "sub-"+principal, []Secret{secret}); err != nil {
			return err
		}
		_, err := s.Deliver(ctx, testDelivery(e.srv.URL, secret))
		return err
	}
	for _, p := range []string{"alice", "alice", "bob"} {
		if err := deliver(p); err != nil {
			t.Fatal(err)
		}
	}
	var kinds []string
	for _, h := range e.recorded() {
		kinds = append(kinds, strings.SplitN(h.header.Get("webhook-id"), "_", 3)[1])
	}
	want := "verification 1 1 verification 1"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("requests %q, want %q (challenge, event, event, challenge for bob, event)", got, want)
	}
}

// TestVerifyEndpointFailure: a failed challenge is not recorded, and no
// event follows it.
func TestVerifyEndpointFailure(t *testing.T) {
	e := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) { w.WriteHeader(http.StatusForbidden) })
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	reg := NewMemoryRegistry(nil)
	ctx := context.Background()
	err := VerifyEndpoint(ctx, s, reg, "alice", e.srv.URL, "sub-1", []Secret{GenerateSecret()})
	var de *DeliveryError
	if !errors.As(err, &de) || de.Category != CategoryChallengeFailed || de.StatusCode != http.StatusForbidden {
		t.Fatalf("VerifyEndpoint = %v, want challenge_failed", err)
	}
	if at, _ := reg.Verification(ctx, "alice", e.srv.URL); !at.IsZero() {
		t.Fatal("a failed challenge was recorded as a verification")
	}
}

// TestChallengeRateLimit: challenges to one host are limited per minute, so
// that subscribing cannot flood a third party; other hosts are not
// affected.
func TestChallengeRateLimit(t *testing.T) {
	e := newEndpoint(t, echo)
	clock := &stepClock{t: time.Now(), step: time.Millisecond}
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, ChallengesPerHost: 2, Now: clock.now})
	ctx := context.Background()
	challenge := func(url string) error {
		return s.Challenge(ctx, url, "sub-1", []Secret{GenerateSecret()})
	}
	for i := range 2 {
		if err := challenge(e.srv.URL); err != nil {
			t.Fatalf("challenge %d: %v", i+1, err)
		}
	}
	err := challenge(e.srv.URL)
	if !errors.Is(err, ErrChallengeRateLimited) || CategoryOf(err) != "" {
		t.Fatalf("a third challenge within a minute = %v, want ErrChallengeRateLimited", err)
	}
	if n := e.count.Load(); n != 2 {
		t.Fatalf("%d challenges reached the host, want 2", n)
	}
	// Another host (the same server under its IPv6 name would do; here
	// "localhost" resolved by a table) has its own count.
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	s.resolver = &mapResolver{answers: map[string][][]netip.Addr{"localhost": {addrs("127.0.0.1")}}}
	if err := challenge("https://localhost" + port); CategoryOf(err) != CategoryTLS {
		t.Fatalf("a challenge to another host = %v, want it sent (and refused by TLS: the certificate is not for localhost)", err)
	}
	clock.mu.Lock()
	clock.t = clock.t.Add(time.Minute)
	clock.mu.Unlock()
	if err := challenge(e.srv.URL); err != nil {
		t.Fatalf("a challenge a minute later: %v", err)
	}
}
