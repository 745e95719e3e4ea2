package webhook

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
)

// TestServiceReauthorizes: Authorize is asked before the first delivery,
// not again within ReauthorizeEvery, again after it; a transient error
// holds the delivery back without ending the subscription, and
// ErrAccessRevoked ends it with a terminated envelope carrying Forbidden
// and data.reason, before the refused occurrence goes out.
func TestServiceReauthorizes(t *testing.T) {
	clock := &manualClock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	var calls atomic.Int64
	answer := make(chan error, 8) // the next answers; nil when empty
	w := newWiredTuned(t, func(o *ServiceOptions, _ *wired) {
		o.Now = clock.now
		o.Rescan = 10 * time.Millisecond
		o.ReauthorizeEvery = time.Minute
		o.Authorize = func(_ context.Context, principal string, sub *Subscription) error {
			calls.Add(1)
			if principal != "alice" || sub.Key.Name != "test.tick" {
				t.Errorf("Authorize(%q, %s), want alice's test.tick", principal, sub.Key.Name)
			}
			select {
			case err := <-answer:
				return err
			default:
				return nil
			}
		}
	}, nil)
	ctx := context.Background()
	res, err := Subscribe(ctx, w.cs, w.r, w.params(GenerateSecret()))
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("Authorize called %d times before any delivery", n)
	}

	// The first check fails for a while (an unreachable policy store): the
	// occurrence waits, then goes out.
	answer <- errors.New("policy store unreachable")
	o1 := w.emit(t, 1)
	if m := w.next(t); m.EventID != o1.EventID {
		t.Fatalf("got %+v, want %s", m, o1.EventID)
	}
	w.waitSettled(t, o1.EventID)
	if n := calls.Load(); n != 2 {
		t.Fatalf("Authorize called %d times for the first delivery, want 2 (a failure, then a permission)", n)
	}

	o2 := w.emit(t, 2) // within a minute of the permission: no check
	w.next(t)
	w.waitSettled(t, o2.EventID)
	if n := calls.Load(); n != 2 {
		t.Fatalf("Authorize called %d times, want still 2 within ReauthorizeEvery", n)
	}

	clock.advance(time.Minute)
	answer <- ErrAccessRevoked
	w.emit(t, 3)
	m := w.next(t)
	if m.Type != EnvelopeTerminated || m.SubscriptionID != res.ID || m.Error == nil ||
		m.Error.Code != int64(events.CodeForbidden) || string(m.Error.Data) != `{"reason":"access revoked"}` {
		t.Fatalf("after the revocation got %+v (error %+v), want a terminated envelope with Forbidden and data.reason", m, m.Error)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("Authorize called %d times, want 3", n)
	}
	if _, err := w.svc.opts.Registry.Get(ctx, res.ID); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("after the revocation the registry has the subscription (%v)", err)
	}
}

// TestServiceTerminate: Terminate removes a subscription and sends it a
// terminated envelope with Forbidden and the reason; an unknown id is
// ErrSubscriptionNotFound.
func TestServiceTerminate(t *testing.T) {
	w := newWired(t)
	ctx := context.Background()
	res, err := Subscribe(ctx, w.cs, w.r, w.params(GenerateSecret()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.svc.Terminate(ctx, res.ID, "maintenance"); err != nil {
		t.Fatal(err)
	}
	m := w.next(t)
	if m.Type != EnvelopeTerminated || m.SubscriptionID != res.ID || m.Error == nil ||
		m.Error.Code != int64(events.CodeForbidden) || string(m.Error.Data) != `{"reason":"maintenance"}` {
		t.Fatalf("got %+v (error %+v), want a terminated envelope with Forbidden and the reason", m, m.Error)
	}
	if err := w.svc.Terminate(ctx, res.ID, "again"); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Fatalf("a second Terminate: %v, want ErrSubscriptionNotFound", err)
	}
}
