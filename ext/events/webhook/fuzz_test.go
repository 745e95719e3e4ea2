package webhook

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzReceiver: whatever the body and headers, the Receiver answers without
// panicking, and hands on a message only if its signature verifies with
// the subscription's secret and its timestamp is within the tolerance.
func FuzzReceiver(f *testing.F) {
	secret := mustSecret(f, vectorSecret)
	now := time.Unix(1_800_000_000, 0)
	f.Add(eventBody, "evt_7", "sub-1", int64(0), true, "application/json")
	f.Add(`{"type":"verification","challenge":"x"}`, "msg_verification_1", "sub-1", int64(0), true, "application/json")
	f.Add(`{"type":"gap","cursor":null}`, "msg_gap_1", "sub-1", int64(-301), true, "application/json")
	f.Add(`{"type":"terminated","error":{"code":"x"}}`, "msg_terminated_1", "sub-1", int64(0), true, "application/json; charset=utf-8")
	f.Add(`{"eventId":"e","name":"n","cursor":5}`, "e", "sub-2", int64(5), false, "text/json")
	f.Add(`[{"eventId":"e"}]`, "", "sub-1", int64(0), true, "")
	f.Fuzz(func(t *testing.T, body, id, sub string, skew int64, sign bool, ctype string) {
		handed := 0
		r := NewReceiver(func(_ context.Context, m *Message) error {
			handed++
			if m.SubscriptionID != "sub-1" || string(m.Body) != body {
				t.Fatalf("handed on %+v", m)
			}
			return nil
		}, &ReceiverOptions{Now: func() time.Time { return now }, MaxBodyBytes: 4096})
		r.Add("sub-1", secret)
		req := httptest.NewRequest(http.MethodPost, "https://client.example/hooks", strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set(HeaderID, id)
		req.Header.Set(HeaderSubscriptionID, sub)
		ts := now.Add(time.Duration(skew%100_000) * time.Second)
		req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
		if sign {
			req.Header.Set(HeaderSignature, Sign(id, ts, []byte(body), secret))
		} else {
			req.Header.Set(HeaderSignature, "v1,"+body)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if handed > 0 {
			d := now.Sub(ts)
			if !sign || sub != "sub-1" || d > DefaultTolerance || d < -DefaultTolerance || w.Code != http.StatusNoContent {
				t.Fatalf("handed on a delivery that must be refused (signed %v, sub %q, skew %v, status %d)", sign, sub, d, w.Code)
			}
		}
		if w.Code < 200 || w.Code > 599 {
			t.Fatalf("status %d", w.Code)
		}
	})
}

// FuzzParseSecret: the parser never panics, accepts only keys of 24 to 64
// bytes, and reads back what Reveal writes.
func FuzzParseSecret(f *testing.F) {
	f.Add(vectorSecret)
	f.Add("whsec_" + strings.Repeat("A", 43))
	f.Add("whsec_====")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSecret(text)
		if err != nil {
			if !s.IsZero() {
				t.Fatal("an error with a key")
			}
			return
		}
		if n := len(s.key); n < MinSecretBytes || n > MaxSecretBytes {
			t.Fatalf("accepted a key of %d bytes", n)
		}
		back, err := ParseSecret(s.Reveal())
		if err != nil || !back.Equal(s) {
			t.Fatalf("ParseSecret(Reveal()) = %v", err)
		}
	})
}

// FuzzNewKey: arguments that make a key are an object whose canonical form
// is stable: the key of the canonical form is the same key.
func FuzzNewKey(f *testing.F) {
	f.Add(`{"b":[1,2.0,{"c":null}],"a":"\u00e9"}`)
	f.Add(`{}`)
	f.Add(`{"a":1e400}`)
	f.Fuzz(func(t *testing.T, args string) {
		k, err := NewKey("p", "https://example.com", "n", []byte(args))
		if err != nil {
			return
		}
		if k.Arguments[0] != '{' {
			t.Fatalf("arguments %q are not an object", k.Arguments)
		}
		again, err := NewKey("p", "https://example.com", "n", []byte(k.Arguments))
		if err != nil || again != k || again.ID() != k.ID() {
			t.Fatalf("the canonical form %q gives another key: %v", k.Arguments, err)
		}
	})
}

// FuzzSubscribeResult: a client decodes any subscribe result without
// panicking, and what it decodes encodes back to a form that decodes the
// same (refreshBefore and deliveryStatus are the parsers).
func FuzzSubscribeResult(f *testing.F) {
	f.Add([]byte(`{"id":"a","refreshBefore":"2026-12-02T07:00:00.000Z","cursor":"c","truncated":false,"deliveryStatus":{"active":true,"lastDeliveryAt":"2026-12-02T06:00:00.000Z","lastError":null}}`))
	f.Add([]byte(`{"id":"a","refreshBefore":null,"cursor":null,"truncated":true,"deliveryStatus":{"active":false,"lastError":"timeout","failedSince":"2026-12-02T05:00:00Z"}}`))
	f.Add([]byte(`{"refreshBefore":"yesterday","deliveryStatus":{"active":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res SubscribeResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		b, err := json.Marshal(&res)
		if err != nil {
			t.Fatalf("encoding %+v: %v", res, err)
		}
		var again SubscribeResult
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("decoding %s: %v", b, err)
		}
		b2, err := json.Marshal(&again)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("not stable: %s then %s (%v)", b, b2, err)
		}
	})
}
