package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
)

// TestServiceDropsAfterSustainedFailure: a no-expiry subscription whose
// endpoint fails every event is suspended after 100 failed deliveries in
// the hour, and once its failures have lasted DropFailingAfter it is
// removed with a terminated envelope carrying CallbackEndpointError and the
// last failure's category.
func TestServiceDropsAfterSustainedFailure(t *testing.T) {
	clock := &manualClock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	w := newWiredTuned(t, func(o *ServiceOptions, _ *wired) {
		o.Now = clock.now
		o.Rescan = 10 * time.Millisecond
		o.Grants = GrantPolicy{AllowNoExpiry: true}
		o.OnError = nil // 100 abandoned deliveries
	}, nil)
	ctx := context.Background()
	p := w.params(GenerateSecret())
	p.TTLMs = json.RawMessage(`null`)
	res, err := Subscribe(ctx, w.cs, w.r, p)
	if err != nil || !res.RefreshBefore.NoExpiry() {
		t.Fatalf("subscribe: %+v, %v; want no expiry", res, err)
	}
	w.failEvents.Store(true)
	var ids []string
	for n := range suspendMinAttempts {
		ids = append(ids, w.emit(t, n).EventID)
	}
	w.waitSettled(t, ids...)
	sub, err := w.svc.opts.Registry.Get(ctx, res.ID)
	if err != nil || sub.Status.Active() || sub.Status.LastError != CategoryHTTP5xx {
		t.Fatalf("after %d failures: %+v, %v; want suspended with http_5xx", suspendMinAttempts, sub, err)
	}

	clock.advance(DefaultDropFailingAfter)
	m := w.next(t)
	if m.Type != EnvelopeTerminated || m.SubscriptionID != res.ID || m.Error == nil ||
		m.Error.Code != int64(events.CodeCallbackEndpointError) || string(m.Error.Data) != `{"reason":"http_5xx"}` {
		t.Fatalf("got %+v (error %+v), want a terminated envelope with CallbackEndpointError and reason http_5xx", m, m.Error)
	}
	if _, err := w.svc.opts.Registry.Get(ctx, res.ID); !errors.Is(err, ErrSubscriptionNotFound) {
		t.Errorf("the dropped subscription is still held (%v)", err)
	}
}

// TestDropDue: only a suspended no-expiry subscription failing for at
// least the threshold is dropped.
func TestDropDue(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	failing := DeliveryStatus{Suspended: true, FailedSince: now.Add(-25 * time.Hour), LastError: CategoryTimeout}
	tests := []struct {
		name   string
		grant  Grant
		status DeliveryStatus
		after  time.Duration
		want   bool
	}{
		{"suspended, no expiry, failing past the threshold", Grant{}, failing, 24 * time.Hour, true},
		{"failing exactly the threshold", Grant{}, failing, 25 * time.Hour, true},
		{"failing less than the threshold", Grant{}, failing, 26 * time.Hour, false},
		{"with a grant", Grant{RefreshBefore: now.Add(time.Hour)}, failing, 24 * time.Hour, false},
		{"not suspended", Grant{}, DeliveryStatus{FailedSince: failing.FailedSince}, 24 * time.Hour, false},
		{"dropping turned off", Grant{}, failing, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := &Subscription{Grant: tt.grant, Status: tt.status}
			if got := dropDue(sub, now, tt.after); got != tt.want {
				t.Errorf("dropDue = %v, want %v", got, tt.want)
			}
		})
	}
}
