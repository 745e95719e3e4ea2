package webhook

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// TestDeliveryStatus: deliveryStatus follows the delivery outcomes:
// lastError is a category or null, failedSince marks the start of a run of
// failures, and errors that are not outcomes change nothing.
func TestDeliveryStatus(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	var s DeliveryStatus
	steps := []struct {
		err  error
		want string
	}{
		{nil, `{"active":true,"lastDeliveryAt":"2026-12-02T06:00:00.000Z","lastError":null}`},
		{&DeliveryError{Category: CategoryHTTP5xx, StatusCode: 502}, `{"active":true,"lastDeliveryAt":"2026-12-02T06:01:00.000Z","lastError":"http_5xx","failedSince":"2026-12-02T06:01:00.000Z"}`},
		{&DeliveryError{Category: CategoryTimeout}, `{"active":true,"lastDeliveryAt":"2026-12-02T06:02:00.000Z","lastError":"timeout","failedSince":"2026-12-02T06:01:00.000Z"}`},
		{context.Canceled, `{"active":true,"lastDeliveryAt":"2026-12-02T06:02:00.000Z","lastError":"timeout","failedSince":"2026-12-02T06:01:00.000Z"}`},
		{ErrBodyTooLarge, `{"active":true,"lastDeliveryAt":"2026-12-02T06:02:00.000Z","lastError":"timeout","failedSince":"2026-12-02T06:01:00.000Z"}`},
		{nil, `{"active":true,"lastDeliveryAt":"2026-12-02T06:05:00.000Z","lastError":null}`},
	}
	for i, st := range steps {
		s.Record(t0.Add(time.Duration(i)*time.Minute), st.err)
		b, err := strictjson.Marshal(s)
		if err != nil || string(b) != st.want {
			t.Fatalf("step %d: %s, %v\nwant %s", i, b, err, st.want)
		}
	}
	if b, _ := strictjson.Marshal(DeliveryStatus{}); string(b) != `{"active":true,"lastError":null}` {
		t.Fatalf("no delivery yet: %s", b)
	}
}

// TestDeliveryStatusSuspension: more than 95% failures over at least 100
// attempts within an hour suspends delivery; a refresh reactivates it.
func TestDeliveryStatusSuspension(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	fail := &DeliveryError{Category: CategoryConnectionRefused}
	var s DeliveryStatus
	for i := range 99 {
		s.Record(t0.Add(time.Duration(i)*time.Second), fail)
	}
	if !s.Active() {
		t.Fatal("suspended before 100 attempts")
	}
	s.Record(t0.Add(100*time.Second), fail)
	if s.Active() {
		t.Fatal("100 failures in 100 attempts did not suspend")
	}
	s.Reactivate()
	if !s.Active() {
		t.Fatal("Reactivate did not reactivate")
	}
	// 95 failures in 100 attempts is not more than 95%.
	var u DeliveryStatus
	for i := range 100 {
		var err error
		if i%20 != 0 {
			err = fail
		}
		u.Record(t0.Add(time.Duration(i)*time.Second), err)
	}
	if !u.Active() {
		t.Fatalf("suspended at %d failures in %d attempts", u.WindowFailures, u.WindowAttempts)
	}
	// Failures spread over more than an hour never fill one window.
	var v DeliveryStatus
	for i := range 200 {
		v.Record(t0.Add(time.Duration(i)*time.Minute), fail)
	}
	if !v.Active() {
		t.Fatal("60 failures an hour suspended")
	}
}

// TestDeliveryStatusFromDeliveries: the status a refresh reports follows
// real deliveries, recorded in the registry after each: a 503 run, then a
// success.
func TestDeliveryStatusFromDeliveries(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	e := newEndpoint(t, func(_ int, w http.ResponseWriter, _ hit) {
		if fail.Load() {
			http.Error(w, "down for maintenance: internal host db-7", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 2})
	reg := NewMemoryRegistry(nil)
	ctx := context.Background()
	key, err := NewKey("alice", e.srv.URL, "email.received", nil)
	if err != nil {
		t.Fatal(err)
	}
	sub := &Subscription{ID: key.ID(), Key: key, Secret: GenerateSecret(), Grant: GrantPolicy{}.Grant(time.Now(), TTL{})}
	if err := reg.Put(ctx, sub); err != nil {
		t.Fatal(err)
	}
	deliver := func() string {
		t.Helper()
		rec, err := s.Deliver(ctx, testDelivery(e.srv.URL, sub.Secret))
		if err := reg.Update(ctx, sub.ID, func(s *Subscription) error { s.Status.Record(rec.At, err); return nil }); err != nil {
			t.Fatal(err)
		}
		got, err := reg.Get(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := strictjson.Marshal(got.Status)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	first := deliver()
	if !strings.Contains(first, `"lastError":"http_5xx","failedSince":`) || strings.Contains(first, "db-7") {
		t.Fatalf("after a failed delivery: %s", first)
	}
	fail.Store(false)
	if got := deliver(); !strings.Contains(got, `"active":true`) || !strings.Contains(got, `"lastError":null`) || strings.Contains(got, "failedSince") {
		t.Fatalf("after a successful delivery: %s", got)
	}
}
