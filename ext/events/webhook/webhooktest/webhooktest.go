// Package webhooktest holds the contract tests of webhook.Registry, the
// store of webhook subscriptions and endpoint verifications. A backend
// passes them before a server uses it:
//
//	func TestRegistry(t *testing.T) {
//		webhooktest.TestRegistry(t, func(t *testing.T) webhook.Registry { return newRegistry(t) }, clock)
//	}
//
// The same tests run against webhook.NewMemoryRegistry and against the
// backends of other modules.
package webhooktest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events/webhook"
)

// A Clock lets the expiry tests run without waiting: Advance moves the
// registry's notion of time forward by d. Pass nil to wait in real time.
type Clock interface {
	Advance(t *testing.T, d time.Duration)
}

// realClock sleeps.
type realClock struct{}

var _ Clock = realClock{}

func (realClock) Advance(_ *testing.T, d time.Duration) { time.Sleep(d) }

// expiry is how far in the future the expiry tests set a grant.
const expiry = 200 * time.Millisecond

// TestRegistry runs the contract tests of webhook.Registry against fresh
// registries from newRegistry. clock moves the registry's time for the
// expiry tests; nil waits in real time.
func TestRegistry(t *testing.T, newRegistry func(t *testing.T) webhook.Registry, clock Clock) {
	if clock == nil {
		clock = realClock{}
	}
	t.Run("PutGetRoundTrip", func(t *testing.T) { testRoundTrip(t, newRegistry(t)) })
	t.Run("GetReturnsCopies", func(t *testing.T) { testCopies(t, newRegistry(t)) })
	t.Run("UnknownID", func(t *testing.T) { testUnknown(t, newRegistry(t)) })
	t.Run("PutReplaces", func(t *testing.T) { testReplace(t, newRegistry(t)) })
	t.Run("Update", func(t *testing.T) { testUpdate(t, newRegistry(t)) })
	t.Run("UpdateConcurrent", func(t *testing.T) { testUpdateConcurrent(t, newRegistry(t)) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newRegistry(t)) })
	t.Run("ListByName", func(t *testing.T) { testList(t, newRegistry(t)) })
	t.Run("Expiry", func(t *testing.T) { testExpiry(t, newRegistry(t), clock) })
	t.Run("Verification", func(t *testing.T) { testVerification(t, newRegistry(t)) })
	t.Run("UpsertRotatesSecret", func(t *testing.T) { testUpsert(t, newRegistry(t)) })
	t.Run("ClaimOnce", func(t *testing.T) { testClaimOnce(t, newRegistry(t)) })
	t.Run("ClaimConcurrent", func(t *testing.T) { testClaimConcurrent(t, newRegistry(t)) })
	t.Run("ClaimExpires", func(t *testing.T) { testClaimExpires(t, newRegistry(t), clock) })
}

// subscription returns a subscription to name at url with a fresh secret
// and a grant of an hour.
func subscription(t *testing.T, name, url string) *webhook.Subscription {
	t.Helper()
	k, err := webhook.NewKey("alice", url, name, []byte(`{"b":1,"a":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	cur := "c-1"
	return &webhook.Subscription{
		ID:     k.ID(),
		Key:    k,
		Secret: webhook.GenerateSecret(),
		Cursor: &cur,
		Grant:  webhook.Grant{RefreshBefore: time.Now().Add(time.Hour).Truncate(time.Millisecond)},
	}
}

// same reports how got differs from want, or "" if it does not.
func same(got, want *webhook.Subscription) string {
	switch {
	case got.ID != want.ID:
		return fmt.Sprintf("ID %q, want %q", got.ID, want.ID)
	case got.Key != want.Key:
		return fmt.Sprintf("Key %+v, want %+v", got.Key, want.Key)
	case !got.Secret.Equal(want.Secret):
		return "Secret differs"
	case !got.PreviousSecret.Equal(want.PreviousSecret):
		return "PreviousSecret differs"
	case !got.PreviousUntil.Equal(want.PreviousUntil):
		return fmt.Sprintf("PreviousUntil %v, want %v", got.PreviousUntil, want.PreviousUntil)
	case (got.Cursor == nil) != (want.Cursor == nil) || got.Cursor != nil && *got.Cursor != *want.Cursor:
		return fmt.Sprintf("Cursor %v, want %v", deref(got.Cursor), deref(want.Cursor))
	case !got.Grant.RefreshBefore.Equal(want.Grant.RefreshBefore):
		return fmt.Sprintf("Grant %v, want %v", got.Grant.RefreshBefore, want.Grant.RefreshBefore)
	case !sameStatus(got.Status, want.Status):
		return fmt.Sprintf("Status %+v, want %+v", got.Status, want.Status)
	}
	return ""
}

func sameStatus(a, b webhook.DeliveryStatus) bool {
	return a.Suspended == b.Suspended && a.LastDeliveryAt.Equal(b.LastDeliveryAt) && a.LastError == b.LastError &&
		a.FailedSince.Equal(b.FailedSince) && a.WindowStart.Equal(b.WindowStart) &&
		a.WindowAttempts == b.WindowAttempts && a.WindowFailures == b.WindowFailures
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func testRoundTrip(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	s.Rotate(webhook.GenerateSecret(), time.Now().Truncate(time.Millisecond), time.Hour)
	at := time.Now().Truncate(time.Millisecond)
	s.Status.Record(at, &webhook.DeliveryError{Category: webhook.CategoryHTTP5xx})
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := same(got, s); d != "" {
		t.Fatalf("Get after Put: %s", d)
	}
	nilCursor := subscription(t, "email.received", "https://hooks.example.com/b")
	nilCursor.Cursor = nil
	if err := r.Put(ctx, nilCursor); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Get(ctx, nilCursor.ID); err != nil || got.Cursor != nil {
		t.Fatalf("Get of a null cursor = %v, %v; want nil", got, err)
	}
}

func testCopies(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	*s.Cursor = "changed after Put"
	got, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Cursor != "c-1" {
		t.Fatalf("the registry kept the caller's cursor: %q", *got.Cursor)
	}
	*got.Cursor = "changed after Get"
	got.Status.WindowAttempts = 99
	again, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if *again.Cursor != "c-1" || again.Status.WindowAttempts != 0 {
		t.Fatalf("Get returned the stored subscription, not a copy: %+v", again)
	}
}

func testUnknown(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	if _, err := r.Get(ctx, "nope"); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Errorf("Get(unknown) = %v, want ErrSubscriptionNotFound", err)
	}
	if err := r.Delete(ctx, "nope"); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Errorf("Delete(unknown) = %v, want ErrSubscriptionNotFound", err)
	}
	called := false
	err := r.Update(ctx, "nope", func(*webhook.Subscription) error { called = true; return nil })
	if !errors.Is(err, webhook.ErrSubscriptionNotFound) || called {
		t.Errorf("Update(unknown) = %v (update called: %v), want ErrSubscriptionNotFound", err, called)
	}
}

func testReplace(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	s2 := s.Clone()
	s2.Secret = webhook.GenerateSecret()
	if err := r.Put(ctx, s2); err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Secret.Equal(s2.Secret) {
		t.Fatal("a second Put did not replace the subscription")
	}
}

func testUpdate(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Truncate(time.Millisecond)
	err := r.Update(ctx, s.ID, func(sub *webhook.Subscription) error {
		next := "c-2"
		sub.Cursor = &next
		sub.Status.Record(at, nil)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Cursor != "c-2" || !got.Status.LastDeliveryAt.Equal(at) || got.Status.LastError != "" {
		t.Fatalf("after Update: cursor %q, status %+v", *got.Cursor, got.Status)
	}
	refused := errors.New("refused")
	err = r.Update(ctx, s.ID, func(sub *webhook.Subscription) error {
		sub.Cursor = nil
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("Update with a failing function = %v, want its error", err)
	}
	if got, _ := r.Get(ctx, s.ID); got.Cursor == nil {
		t.Fatal("an Update whose function failed was stored")
	}
}

// testUpdateConcurrent checks that Update is atomic: concurrent increments
// are all kept.
func testUpdateConcurrent(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			errs <- r.Update(ctx, s.ID, func(sub *webhook.Subscription) error {
				sub.Status.WindowAttempts++
				return nil
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.WindowAttempts != n {
		t.Fatalf("%d concurrent updates left the count at %d", n, got.Status.WindowAttempts)
	}
}

func testDelete(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := r.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get(ctx, s.ID); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrSubscriptionNotFound", err)
	}
	if err := r.Delete(ctx, s.ID); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Fatalf("a second Delete = %v, want ErrSubscriptionNotFound", err)
	}
}

func testList(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	a := subscription(t, "email.received", "https://hooks.example.com/a")
	b := subscription(t, "email.received", "https://hooks.example.com/b")
	c := subscription(t, "issue.opened", "https://hooks.example.com/a")
	for _, s := range []*webhook.Subscription{a, b, c} {
		if err := r.Put(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	got, err := r.List(ctx, "email.received")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	want := []string{a.ID, b.ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("List(email.received) = %v, want %v", ids, want)
	}
	if got, err := r.List(ctx, "nothing"); err != nil || len(got) != 0 {
		t.Fatalf("List(nothing) = %v, %v; want none", got, err)
	}
}

func testExpiry(t *testing.T, r webhook.Registry, clock Clock) {
	ctx := context.Background()
	short := subscription(t, "email.received", "https://hooks.example.com/short")
	short.Grant = webhook.Grant{RefreshBefore: time.Now().Add(expiry)}
	forever := subscription(t, "email.received", "https://hooks.example.com/forever")
	forever.Grant = webhook.Grant{}
	for _, s := range []*webhook.Subscription{short, forever} {
		if err := r.Put(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Get(ctx, short.ID); err != nil {
		t.Fatalf("Get before expiry: %v", err)
	}
	clock.Advance(t, 2*expiry)
	if _, err := r.Get(ctx, short.ID); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Fatalf("Get after expiry = %v, want ErrSubscriptionNotFound", err)
	}
	got, err := r.List(ctx, "email.received")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != forever.ID {
		t.Fatalf("List after expiry holds %d subscriptions, want only the one without expiry", len(got))
	}
	if _, err := r.Get(ctx, forever.ID); err != nil {
		t.Fatalf("a subscription without expiry expired: %v", err)
	}
}

func testVerification(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	const url = "https://hooks.example.com/a"
	if at, err := r.Verification(ctx, "alice", url); err != nil || !at.IsZero() {
		t.Fatalf("Verification before any = %v, %v; want zero", at, err)
	}
	at := time.Now().Truncate(time.Millisecond)
	if err := r.SetVerification(ctx, "alice", url, at); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Verification(ctx, "alice", url); err != nil || !got.Equal(at) {
		t.Fatalf("Verification = %v, %v; want %v", got, err, at)
	}
	for _, other := range [][2]string{{"bob", url}, {"alice", url + "/other"}} {
		if got, err := r.Verification(ctx, other[0], other[1]); err != nil || !got.IsZero() {
			t.Fatalf("Verification of %v = %v, %v; it is per (principal, url)", other, got, err)
		}
	}
	if err := r.SetVerification(ctx, "alice", url, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Verification(ctx, "alice", url); err != nil || !got.IsZero() {
		t.Fatalf("Verification after forgetting = %v, %v; want zero", got, err)
	}
}

func testUpsert(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	now := time.Now().Truncate(time.Millisecond)
	s := subscription(t, "email.received", "https://hooks.example.com/a")
	first := s.Secret
	if _, refreshed, err := webhook.Upsert(ctx, r, s, now, time.Hour); err != nil || refreshed {
		t.Fatalf("first Upsert: refreshed %v, %v", refreshed, err)
	}
	if err := r.Update(ctx, s.ID, func(sub *webhook.Subscription) error {
		sub.Status.Suspended = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	again := s.Clone()
	again.Secret = webhook.GenerateSecret()
	again.Cursor = nil
	got, refreshed, err := webhook.Upsert(ctx, r, again, now, time.Hour)
	if err != nil || !refreshed {
		t.Fatalf("second Upsert: refreshed %v, %v", refreshed, err)
	}
	stored, err := r.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []*webhook.Subscription{got, stored} {
		secrets := sub.Secrets(now)
		if len(secrets) != 2 || !secrets[0].Equal(again.Secret) || !secrets[1].Equal(first) {
			t.Fatalf("after a rotation the secrets are %d, want the new one then the old one", len(secrets))
		}
		if len(sub.Secrets(now.Add(time.Hour))) != 1 {
			t.Fatal("the old secret still signs after its grace window")
		}
		if sub.Status.Suspended || sub.Cursor == nil || *sub.Cursor != "c-1" {
			t.Fatalf("a refresh must reactivate and keep the cursor it was not given: %+v", sub)
		}
	}
}
