package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// verifyIndependently checks a recorded delivery's signature with the
// standard library alone: HMAC-SHA256 under the decoded bytes after
// whsec_, over id.timestamp.body.
func verifyIndependently(t *testing.T, h hit, secretText string) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secretText, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(h.header.Get("webhook-id") + "." + h.header.Get("webhook-timestamp") + "."))
	m.Write(h.body)
	want := "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
	if !slices.Contains(strings.Fields(h.header.Get("webhook-signature")), want) {
		t.Fatalf("webhook-signature %q lacks %q", h.header.Get("webhook-signature"), want)
	}
}

// TestDeliveryWire: a delivery is a POST of application/json carrying
// webhook-id, webhook-timestamp, webhook-signature and
// X-MCP-Subscription-Id, signed over the raw body with the decoded secret.
func TestDeliveryWire(t *testing.T) {
	e := newEndpoint(t, nil)
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	secret := GenerateSecret()
	d := testDelivery(e.srv.URL+"/hooks/mcp", secret)
	before := time.Now().Unix()
	rec, err := s.Deliver(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Attempts != 1 || rec.StatusCode != http.StatusNoContent {
		t.Fatalf("receipt %+v, want one attempt answered 204", rec)
	}
	hits := e.recorded()
	if len(hits) != 1 {
		t.Fatalf("%d requests, want 1", len(hits))
	}
	h := hits[0]
	if h.method != http.MethodPost || h.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s with Content-Type %q, want POST of application/json", h.method, h.header.Get("Content-Type"))
	}
	if h.header.Get("webhook-id") != "evt_1" || h.header.Get("X-MCP-Subscription-Id") != "sub-1" {
		t.Fatalf("webhook-id %q, X-MCP-Subscription-Id %q", h.header.Get("webhook-id"), h.header.Get("X-MCP-Subscription-Id"))
	}
	ts, err := strconv.ParseInt(h.header.Get("webhook-timestamp"), 10, 64)
	if err != nil || ts < before || ts > time.Now().Unix() {
		t.Fatalf("webhook-timestamp %q is not the time of sending in seconds", h.header.Get("webhook-timestamp"))
	}
	if string(h.body) != string(d.Body) {
		t.Fatalf("body %s, want the delivery's bytes", h.body)
	}
	verifyIndependently(t, h, secret.Reveal())
}

// TestRetriesSignAfresh: every retry carries a fresh timestamp and
// signature and the same webhook-id.
func TestRetriesSignAfresh(t *testing.T) {
	e := newEndpoint(t, func(n int, w http.ResponseWriter, _ hit) {
		if n < 3 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	clock := &stepClock{t: time.Now(), step: time.Second}
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, Now: clock.now})
	secret := GenerateSecret()
	rec, err := s.Deliver(context.Background(), testDelivery(e.srv.URL, secret))
	if err != nil || rec.Attempts != 3 {
		t.Fatalf("Deliver = %+v, %v; want success at the third attempt", rec, err)
	}
	hits := e.recorded()
	var stamps, sigs []string
	for _, h := range hits {
		if h.header.Get("webhook-id") != "evt_1" {
			t.Fatalf("a retry changed webhook-id to %q", h.header.Get("webhook-id"))
		}
		verifyIndependently(t, h, secret.Reveal())
		stamps = append(stamps, h.header.Get("webhook-timestamp"))
		sigs = append(sigs, h.header.Get("webhook-signature"))
	}
	if len(slices.Compact(slices.Clone(stamps))) != 3 || len(slices.Compact(slices.Clone(sigs))) != 3 {
		t.Fatalf("timestamps %v and signatures %v are not fresh at each attempt", stamps, sigs)
	}
}

// TestNoRetryAfter410Or413: 410 and 413 end the delivery at once; other
// failures are retried, a bounded number of times.
func TestNoRetryAfter410Or413(t *testing.T) {
	tests := []struct {
		status   int
		attempts int
		category Category
	}{
		{http.StatusGone, 1, CategoryHTTP4xx},
		{http.StatusRequestEntityTooLarge, 1, CategoryHTTP4xx},
		{http.StatusNotFound, 4, CategoryHTTP4xx},
		{http.StatusTooManyRequests, 4, CategoryHTTP4xx},
		{http.StatusServiceUnavailable, 4, CategoryHTTP5xx},
		{http.StatusInternalServerError, 4, CategoryHTTP5xx},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			e := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) {
				http.Error(w, "BODY-MARKER internal details", tt.status)
			})
			s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 4})
			rec, err := s.Deliver(context.Background(), testDelivery(e.srv.URL, GenerateSecret()))
			var de *DeliveryError
			if !errors.As(err, &de) || de.Category != tt.category || de.StatusCode != tt.status || de.Attempts != tt.attempts {
				t.Fatalf("Deliver = %v, want %s after %d attempts", err, tt.category, tt.attempts)
			}
			if n := e.count.Load(); n != int64(tt.attempts) || rec.Attempts != tt.attempts {
				t.Fatalf("%d requests (receipt %d), want %d", n, rec.Attempts, tt.attempts)
			}
			if strings.Contains(err.Error(), "BODY-MARKER") {
				t.Fatalf("the error shows the response body: %v", err)
			}
		})
	}
}

// TestRetriesBoundedInTime: no attempt starts after MaxElapsed.
func TestRetriesBoundedInTime(t *testing.T) {
	e := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) { w.WriteHeader(http.StatusBadGateway) })
	clock := &stepClock{t: time.Now(), step: time.Minute}
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 50, MaxElapsed: 10 * time.Minute, Now: clock.now})
	_, err := s.Deliver(context.Background(), testDelivery(e.srv.URL, GenerateSecret()))
	if CategoryOf(err) != CategoryHTTP5xx {
		t.Fatalf("Deliver = %v, want http_5xx", err)
	}
	// The clock moves a minute at every reading, and an attempt with its
	// deadline check reads it three times: about 3 minutes an attempt.
	if n := e.count.Load(); n < 2 || n > 4 {
		t.Fatalf("%d attempts within 10 minutes of 4-minute attempts", n)
	}
}

// TestBackoffGrows: waits double from InitialBackoff up to MaxBackoff,
// less at most 20% of jitter.
func TestBackoffGrows(t *testing.T) {
	s := NewSender(nil)
	for attempt, want := range map[int]time.Duration{1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 4: 4 * time.Minute, 5: 5 * time.Minute, 9: 5 * time.Minute} {
		got := s.backoff(attempt)
		if got > want || got < want*4/5 {
			t.Errorf("backoff(%d) = %v, want %v less up to 20%%", attempt, got, want)
		}
	}
}

// TestCategories: every failure is reported as exactly one of the
// categories the extension lists, and nothing of the response.
func TestCategories(t *testing.T) {
	allowed := []Category{CategoryConnectionRefused, CategoryTimeout, CategoryTLS, CategoryHTTP4xx, CategoryHTTP5xx, CategoryChallengeFailed}
	release := make(chan struct{})
	slow := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) { <-release })
	t.Cleanup(func() { close(release) })
	closed := newEndpoint(t, nil)
	closedURL := closed.srv.URL
	closed.srv.Close()
	redirectTarget := newEndpoint(t, nil)
	redirect := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) {
		w.Header().Set("Location", redirectTarget.srv.URL)
		w.WriteHeader(http.StatusFound)
	})
	plain := newEndpoint(t, nil)
	tests := []struct {
		name   string
		url    string
		sender *Sender
		want   Category
	}{
		{"refused", closedURL, testSender(t, closed.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1}), CategoryConnectionRefused},
		{"timeout", slow.srv.URL, testSender(t, slow.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1, AttemptTimeout: 100 * time.Millisecond}), CategoryTimeout},
		{"untrusted certificate", plain.srv.URL, testSender(t, nil, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1}), CategoryTLS},
		{"https to a plain http server", "https://" + strings.TrimPrefix(newPlainServer(t), "http://"), testSender(t, nil, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1}), CategoryTLS},
		{"redirect not followed", redirect.srv.URL, testSender(t, redirect.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1}), CategoryHTTP4xx},
		{"forbidden address", plain.srv.URL, testSender(t, plain.srv, SenderOptions{MaxAttempts: 1}), ""},
		{"name without address", "https://nowhere.invalid/", testSender(t, nil, SenderOptions{MaxAttempts: 1, Resolver: &mapResolver{}}), CategoryConnectionRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.sender.Deliver(context.Background(), testDelivery(tt.url, GenerateSecret()))
			got := CategoryOf(err)
			if tt.want == "" { // refused at the URL check, before any attempt
				if !errors.Is(err, ErrInvalidURL) || got != "" {
					t.Fatalf("Deliver = %v (%q), want ErrInvalidURL", err, got)
				}
				return
			}
			if got != tt.want || !slices.Contains(allowed, got) {
				t.Fatalf("Deliver = %v, category %q, want %q", err, got, tt.want)
			}
		})
	}
	if n := redirectTarget.count.Load(); n != 0 {
		t.Fatalf("the redirect was followed (%d requests)", n)
	}
	if n := plain.count.Load(); n != 0 {
		t.Fatalf("%d requests reached the endpoints that must be refused", n)
	}
}

// newPlainServer starts a plain http server and returns its URL.
func newPlainServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBodyLimit: 256 KiB is delivered, one byte more is refused before any
// attempt.
func TestBodyLimit(t *testing.T) {
	e := newEndpoint(t, nil)
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	d := testDelivery(e.srv.URL, GenerateSecret())
	d.Body = []byte(`{"eventId":"e","name":"n","timestamp":"t","data":{"pad":"` + strings.Repeat("x", MaxBodyBytes-60) + `"}}`)
	if len(d.Body) != MaxBodyBytes {
		t.Fatalf("test body of %d bytes", len(d.Body))
	}
	if _, err := s.Deliver(context.Background(), d); err != nil {
		t.Fatalf("a body of exactly 256 KiB: %v", err)
	}
	d.Body = append(d.Body, ' ')
	_, err := s.Deliver(context.Background(), d)
	if !errors.Is(err, ErrBodyTooLarge) || CategoryOf(err) != "" {
		t.Fatalf("a body of 256 KiB + 1 = %v, want ErrBodyTooLarge", err)
	}
	if n := e.count.Load(); n != 1 {
		t.Fatalf("%d requests, want only the one within the limit", n)
	}
}

// TestDualSigning: after a rotation a delivery carries a signature by each
// secret, and a receiver holding either verifies it.
func TestDualSigning(t *testing.T) {
	e := newEndpoint(t, nil)
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	old, next := GenerateSecret(), GenerateSecret()
	sub := &Subscription{Secret: old}
	now := time.Now()
	sub.Rotate(next, now, DefaultSecretGrace)
	if _, err := s.Deliver(context.Background(), testDelivery(e.srv.URL, sub.Secrets(now)...)); err != nil {
		t.Fatal(err)
	}
	h := e.recorded()[0]
	if n := len(strings.Fields(h.header.Get("webhook-signature"))); n != 2 {
		t.Fatalf("webhook-signature holds %d signatures, want 2", n)
	}
	verifyIndependently(t, h, old.Reveal())
	verifyIndependently(t, h, next.Reveal())
	if got := sub.Secrets(now.Add(DefaultSecretGrace)); len(got) != 1 || !got[0].Equal(next) {
		t.Fatal("the old secret signs after its grace window")
	}
}

// TestCancelledDelivery: cancelling the context stops the retries, and the
// error has no category.
func TestCancelledDelivery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := newEndpoint(t, func(n int, w http.ResponseWriter, _ hit) {
		cancel()
		w.WriteHeader(http.StatusInternalServerError)
	})
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, InitialBackoff: time.Hour})
	_, err := s.Deliver(ctx, testDelivery(e.srv.URL, GenerateSecret()))
	if !errors.Is(err, context.Canceled) || CategoryOf(err) != "" {
		t.Fatalf("Deliver = %v, want context.Canceled without category", err)
	}
}

// TestEnvelopes: gap and terminated envelopes have the type discriminator,
// their field, and a webhook-id msg_<type>_<random>; they are signed like
// events.
func TestEnvelopes(t *testing.T) {
	gap, err := GapBody("c-9")
	if err != nil || string(gap) != `{"type":"gap","cursor":"c-9"}` {
		t.Fatalf("GapBody = %s, %v", gap, err)
	}
	term, err := TerminatedBody(EnvelopeError{Code: -32024, Message: "Forbidden", Data: []byte(`{"reason":"Access revoked"}`)})
	if err != nil || string(term) != `{"type":"terminated","error":{"code":-32024,"message":"Forbidden","data":{"reason":"Access revoked"}}}` {
		t.Fatalf("TerminatedBody = %s, %v", term, err)
	}
	if _, err := TerminatedBody(EnvelopeError{Code: 1, Message: "x", Data: []byte(`{`)}); err == nil {
		t.Fatal("TerminatedBody accepted data that is not JSON")
	}
	idRE := regexp.MustCompile(`^msg_(gap|terminated|verification)_[0-9a-f]{32}$`)
	e := newEndpoint(t, nil)
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	secret := GenerateSecret()
	for _, env := range []struct {
		typ  string
		body []byte
	}{{EnvelopeGap, gap}, {EnvelopeTerminated, term}} {
		id := NewEnvelopeID(env.typ)
		if !idRE.MatchString(id) || id == NewEnvelopeID(env.typ) {
			t.Fatalf("NewEnvelopeID(%s) = %q", env.typ, id)
		}
		if _, err := s.Deliver(context.Background(), &Delivery{URL: e.srv.URL, SubscriptionID: "sub-1", ID: id, Body: env.body, Secrets: []Secret{secret}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range e.recorded() {
		if !idRE.MatchString(h.header.Get("webhook-id")) {
			t.Fatalf("webhook-id %q", h.header.Get("webhook-id"))
		}
		verifyIndependently(t, h, secret.Reveal())
	}
}

// TestInvalidDelivery: a delivery without id, subscription id or secret is
// refused before any attempt.
func TestInvalidDelivery(t *testing.T) {
	s := NewSender(nil)
	for name, d := range map[string]*Delivery{
		"no id":              {URL: "https://example.com", SubscriptionID: "s", Secrets: []Secret{GenerateSecret()}},
		"no subscription id": {URL: "https://example.com", ID: "e", Secrets: []Secret{GenerateSecret()}},
		"no secret":          {URL: "https://example.com", ID: "e", SubscriptionID: "s"},
		"zero secret":        {URL: "https://example.com", ID: "e", SubscriptionID: "s", Secrets: []Secret{{}}},
	} {
		if _, err := s.Deliver(context.Background(), d); err == nil || CategoryOf(err) != "" {
			t.Errorf("%s: Deliver = %v, want an error without category", name, err)
		}
	}
}
