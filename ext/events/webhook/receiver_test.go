package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// got collects what a Receiver hands on.
type got struct {
	mu   sync.Mutex
	msgs []*Message
	fail error
}

func (g *got) handle(_ context.Context, m *Message) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return g.fail
	}
	g.msgs = append(g.msgs, m)
	return nil
}

func (g *got) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.msgs)
}

// signedRequest builds a delivery as a server sends it.
type signedRequest struct {
	id, sub string
	ts      time.Time
	body    string
	secrets []Secret
	sig     string // overrides the signature when set
	method  string
	ctype   string
}

func (s signedRequest) build() *http.Request {
	method := s.method
	if method == "" {
		method = http.MethodPost
	}
	r := httptest.NewRequest(method, "https://client.example/hooks", strings.NewReader(s.body))
	ct := s.ctype
	if ct == "" {
		ct = "application/json"
	}
	r.Header.Set("Content-Type", ct)
	if s.id != "" {
		r.Header.Set(HeaderID, s.id)
	}
	if s.sub != "" {
		r.Header.Set(HeaderSubscriptionID, s.sub)
	}
	r.Header.Set(HeaderTimestamp, strconv.FormatInt(s.ts.Unix(), 10))
	sig := s.sig
	if sig == "" {
		sig = Sign(s.id, s.ts, []byte(s.body), s.secrets...)
	}
	r.Header.Set(HeaderSignature, sig)
	return r
}

const eventBody = `{"eventId":"evt_7","name":"email.received","timestamp":"2026-12-02T06:00:00Z","data":{"n":1},"cursor":"c-7"}`

// TestReceiver: the receiver's answer to each kind of request, and what it
// hands on.
func TestReceiver(t *testing.T) {
	secret := GenerateSecret()
	now := time.Unix(1_800_000_000, 0)
	literal := hmac.New(sha256.New, []byte(secret.Reveal()))
	literal.Write([]byte("evt_7.1800000000." + eventBody))
	literalSig := "v1," + base64.StdEncoding.EncodeToString(literal.Sum(nil))
	ok := signedRequest{id: "evt_7", sub: "sub-1", ts: now, body: eventBody, secrets: []Secret{secret}}
	with := func(f func(*signedRequest)) signedRequest { r := ok; f(&r); return r }
	tests := []struct {
		name    string
		req     signedRequest
		status  int
		handled string // the Type handed on, "-" for nothing
	}{
		{"event", ok, http.StatusNoContent, ""},
		{"signed by the previous secret too", with(func(r *signedRequest) { r.secrets = []Secret{GenerateSecret(), secret} }), http.StatusNoContent, ""},
		{"gap", with(func(r *signedRequest) { r.id, r.body = "msg_gap_1", `{"type":"gap","cursor":"c-9"}` }), http.StatusNoContent, "gap"},
		{"terminated", with(func(r *signedRequest) {
			r.id, r.body = "msg_terminated_1", `{"type":"terminated","error":{"code":-32024,"message":"Forbidden","data":{"reason":"Access revoked"}}}`
		}), http.StatusNoContent, "terminated"},
		{"unknown envelope type", with(func(r *signedRequest) { r.id, r.body = "msg_x_1", `{"type":"future"}` }), http.StatusNoContent, "future"},
		{"challenge", with(func(r *signedRequest) {
			r.id, r.body = "msg_verification_1", `{"type":"verification","challenge":"n0nce"}`
		}), http.StatusOK, "-"},
		{"wrong secret", with(func(r *signedRequest) { r.secrets = []Secret{GenerateSecret()} }), http.StatusUnauthorized, "-"},
		{"signed with the literal whsec_ string", with(func(r *signedRequest) { r.sig = literalSig }), http.StatusUnauthorized, "-"},
		{"body changed after signing", with(func(r *signedRequest) { r.sig = Sign(r.id, r.ts, []byte(r.body+" "), secret) }), http.StatusUnauthorized, "-"},
		{"6 minutes old", with(func(r *signedRequest) { r.ts = now.Add(-6 * time.Minute) }), http.StatusBadRequest, "-"},
		{"6 minutes ahead", with(func(r *signedRequest) { r.ts = now.Add(6 * time.Minute) }), http.StatusBadRequest, "-"},
		{"4 minutes old", with(func(r *signedRequest) { r.ts = now.Add(-4 * time.Minute) }), http.StatusNoContent, ""},
		{"no webhook-id", with(func(r *signedRequest) { r.id = "" }), http.StatusBadRequest, "-"},
		{"no subscription id", with(func(r *signedRequest) { r.sub = "" }), http.StatusBadRequest, "-"},
		{"unknown subscription", with(func(r *signedRequest) { r.sub = "sub-unknown" }), http.StatusServiceUnavailable, "-"},
		{"GET", with(func(r *signedRequest) { r.method = http.MethodGet }), http.StatusMethodNotAllowed, "-"},
		{"text/plain", with(func(r *signedRequest) { r.ctype = "text/plain" }), http.StatusUnsupportedMediaType, "-"},
		{"charset parameter", with(func(r *signedRequest) { r.ctype = "application/json; charset=utf-8" }), http.StatusNoContent, ""},
		{"event without eventId", with(func(r *signedRequest) { r.body = `{"name":"email.received","data":{}}` }), http.StatusBadRequest, "-"},
		{"terminated without error", with(func(r *signedRequest) { r.id, r.body = "msg_terminated_2", `{"type":"terminated"}` }), http.StatusBadRequest, "-"},
		{"not JSON", with(func(r *signedRequest) { r.body = `{"eventId":` }), http.StatusBadRequest, "-"},
		{"duplicate member", with(func(r *signedRequest) { r.body = `{"eventId":"a","eventId":"b","name":"n"}` }), http.StatusBadRequest, "-"},
		{"body over the limit", with(func(r *signedRequest) {
			r.body = `{"eventId":"e","name":"n","pad":"` + strings.Repeat("x", 300<<10) + `"}`
		}), http.StatusRequestEntityTooLarge, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &got{}
			r := NewReceiver(g.handle, &ReceiverOptions{Now: func() time.Time { return now }})
			r.Add("sub-1", secret)
			w := httptest.NewRecorder()
			r.ServeHTTP(w, tt.req.build())
			if w.Code != tt.status {
				t.Fatalf("status %d (%s), want %d", w.Code, strings.TrimSpace(w.Body.String()), tt.status)
			}
			if tt.handled == "-" {
				if g.count() != 0 {
					t.Fatalf("handed on %+v", g.msgs[0])
				}
				return
			}
			if g.count() != 1 {
				t.Fatalf("handed on %d messages, want 1", g.count())
			}
			checkHanded(t, g.msgs[0], tt.req, tt.handled)
		})
	}
}

// checkHanded checks the message a Receiver handed on for req.
func checkHanded(t *testing.T, m *Message, req signedRequest, typ string) {
	t.Helper()
	if m.Type != typ || m.SubscriptionID != "sub-1" || m.ID != req.id || string(m.Body) != req.body || !m.Timestamp.Equal(time.Unix(req.ts.Unix(), 0)) {
		t.Fatalf("handed on %+v", m)
	}
	switch m.Type {
	case "":
		if m.EventID != "evt_7" || m.Name != "email.received" || m.Cursor == nil || *m.Cursor != "c-7" {
			t.Fatalf("event %+v", m)
		}
	case "gap":
		if m.Cursor == nil || *m.Cursor != "c-9" {
			t.Fatalf("gap %+v", m)
		}
	case "terminated":
		if m.Error == nil || m.Error.Code != -32024 || m.Error.Message != "Forbidden" || string(m.Error.Data) != `{"reason":"Access revoked"}` {
			t.Fatalf("terminated %+v", m.Error)
		}
	}
}

// TestReceiverChallengeEcho: a challenge is answered 200 with the nonce.
func TestReceiverChallengeEcho(t *testing.T) {
	secret := GenerateSecret()
	now := time.Now()
	r := NewReceiver((&got{}).handle, nil)
	r.Add("sub-1", secret)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, signedRequest{id: "msg_verification_1", sub: "sub-1", ts: now, body: `{"type":"verification","challenge":"abc-123"}`, secrets: []Secret{secret}}.build())
	if w.Code != http.StatusOK || w.Body.String() != `{"challenge":"abc-123"}` || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q %q", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
}

// TestReceiverReplay: a delivery seen once is acknowledged again without
// being handed on; one whose handler failed is handed on at its retry.
func TestReceiverReplay(t *testing.T) {
	secret := GenerateSecret()
	now := time.Now()
	g := &got{}
	r := NewReceiver(g.handle, nil)
	r.Add("sub-1", secret)
	req := signedRequest{id: "evt_7", sub: "sub-1", ts: now, body: eventBody, secrets: []Secret{secret}}
	for i := range 3 {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req.build())
		if w.Code != http.StatusNoContent {
			t.Fatalf("delivery %d: %d", i, w.Code)
		}
	}
	if g.count() != 1 {
		t.Fatalf("a replayed delivery was handed on %d times", g.count())
	}
	// The same webhook-id for another subscription is another delivery.
	r.Add("sub-2", secret)
	other := req
	other.sub = "sub-2"
	w := httptest.NewRecorder()
	r.ServeHTTP(w, other.build())
	if w.Code != http.StatusNoContent || g.count() != 2 {
		t.Fatalf("the same event for another subscription: %d, handed on %d", w.Code, g.count())
	}
	// A failed handler lets the retry through.
	g.fail = errors.New("disk full")
	retry := req
	retry.id = "evt_8"
	w = httptest.NewRecorder()
	r.ServeHTTP(w, retry.build())
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("a failing handler: %d, want 500", w.Code)
	}
	g.fail = nil
	w = httptest.NewRecorder()
	r.ServeHTTP(w, retry.build())
	if w.Code != http.StatusNoContent || g.count() != 3 {
		t.Fatalf("the retry after a failure: %d, handed on %d", w.Code, g.count())
	}
}

// TestReceiverReplayCapacity: with its memory full of live deliveries the
// receiver refuses new ones with 503 rather than forget one early; once
// they expire it accepts again.
func TestReceiverReplayCapacity(t *testing.T) {
	secret := GenerateSecret()
	start := time.Unix(1_800_000_000, 0)
	now := start
	g := &got{}
	r := NewReceiver(g.handle, &ReceiverOptions{ReplayCapacity: 2, Now: func() time.Time { return now }})
	r.Add("sub-1", secret)
	send := func(id string, ts time.Time) int {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, signedRequest{id: id, sub: "sub-1", ts: ts, body: eventBody, secrets: []Secret{secret}}.build())
		return w.Code
	}
	if send("a", now) != http.StatusNoContent || send("b", now) != http.StatusNoContent {
		t.Fatal("first two deliveries refused")
	}
	if code := send("c", now); code != http.StatusServiceUnavailable {
		t.Fatalf("a third delivery with a full memory: %d, want 503", code)
	}
	if code := send("a", now); code != http.StatusNoContent || g.count() != 2 {
		t.Fatalf("a replay with a full memory: %d, handed on %d", code, g.count())
	}
	now = start.Add(DefaultTolerance + time.Second)
	if code := send("c", now); code != http.StatusNoContent || g.count() != 3 {
		t.Fatalf("a delivery after the window: %d, handed on %d", code, g.count())
	}
	if code := send("a", start); code != http.StatusBadRequest {
		t.Fatalf("a replay of a forgotten delivery: %d, want 400 (too old)", code)
	}
}

// TestReceiverExpect: before the client knows its subscription id, a
// challenge signed with the secret it subscribed with is answered, and the
// id is then known; an event for the id before that gets 503.
func TestReceiverExpect(t *testing.T) {
	secret := GenerateSecret()
	now := time.Now()
	g := &got{}
	r := NewReceiver(g.handle, nil)
	event := signedRequest{id: "evt_7", sub: "sub-new", ts: now, body: eventBody, secrets: []Secret{secret}}
	challenge := signedRequest{id: "msg_verification_1", sub: "sub-new", ts: now, body: `{"type":"verification","challenge":"n"}`, secrets: []Secret{secret}}
	serve := func(req signedRequest) int {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req.build())
		return w.Code
	}
	if code := serve(challenge); code != http.StatusServiceUnavailable {
		t.Fatalf("a challenge nobody expects: %d, want 503", code)
	}
	done := r.Expect(secret)
	forged := challenge
	forged.secrets = []Secret{GenerateSecret()}
	if code := serve(forged); code != http.StatusServiceUnavailable {
		t.Fatalf("a challenge signed with another secret: %d, want 503", code)
	}
	if code := serve(event); code != http.StatusServiceUnavailable {
		t.Fatalf("an event before the subscription is known: %d, want 503", code)
	}
	if code := serve(challenge); code != http.StatusOK {
		t.Fatalf("the expected challenge: %d, want 200", code)
	}
	done()
	if code := serve(event); code != http.StatusNoContent || g.count() != 1 {
		t.Fatalf("an event after the challenge: %d, handed on %d", code, g.count())
	}
	r.Remove("sub-new")
	event.id = "evt_8"
	if code := serve(event); code != http.StatusServiceUnavailable {
		t.Fatalf("an event after Remove: %d, want 503", code)
	}
}

// TestSenderToReceiver: the two sides over TLS: challenge, event, dual
// signing, and a receiver that has only the old secret.
func TestSenderToReceiver(t *testing.T) {
	g := &got{}
	r := NewReceiver(g.handle, nil)
	srv := httptest.NewTLSServer(r)
	t.Cleanup(srv.Close)
	s := testSender(t, srv, SenderOptions{InsecureAllowPrivateAndHTTP: true})
	ctx := context.Background()
	old := GenerateSecret()
	done := r.Expect(old)
	reg := NewMemoryRegistry(nil)
	if err := VerifyEndpoint(ctx, s, reg, "alice", srv.URL, "sub-1", []Secret{old}); err != nil {
		t.Fatal(err)
	}
	done()
	sub := &Subscription{ID: "sub-1", Secret: old}
	sub.Rotate(GenerateSecret(), time.Now(), time.Hour) // the receiver still has only the old one
	d := testDelivery(srv.URL, sub.Secrets(time.Now())...)
	if _, err := s.Deliver(ctx, d); err != nil {
		t.Fatal(err)
	}
	if g.count() != 1 || g.msgs[0].EventID != "evt_1" || !bytes.Equal(g.msgs[0].Body, d.Body) {
		t.Fatalf("the receiver got %d messages", g.count())
	}
	// The same delivery again (a retry after a lost answer) is acknowledged
	// and not handed on.
	if rec, err := s.Deliver(ctx, d); err != nil || rec.StatusCode != http.StatusNoContent || g.count() != 1 {
		t.Fatalf("a repeated delivery: %+v, %v, handed on %d", rec, err, g.count())
	}
}
