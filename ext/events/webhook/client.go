package webhook

import (
	"context"
	"fmt"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// Subscribe sends events/subscribe for webhook delivery to the endpoint r
// serves at p.Delivery.URL, with the secret p.Delivery.Secret: r answers
// the server's challenge while the request is in flight, and accepts the
// subscription's deliveries once it returns (with the previous secrets
// too, for a rotation: pass them as previous).
func Subscribe(ctx context.Context, cs *mcp.ClientSession, r *Receiver, p *events.SubscribeParams, previous ...Secret) (*SubscribeResult, error) {
	if p.Delivery == nil {
		return nil, fmt.Errorf("webhook: Subscribe: no delivery")
	}
	secret, err := ParseSecret(p.Delivery.Secret)
	if err != nil {
		return nil, fmt.Errorf("webhook: Subscribe: %w", err)
	}
	q := *p
	d := *p.Delivery
	if d.Mode == "" {
		d.Mode = events.DeliveryWebhook
	}
	q.Delivery = &d
	done := r.Expect(secret)
	defer done()
	var res SubscribeResult
	if err := cs.Call(ctx, events.MethodSubscribe, &q, &res); err != nil {
		return nil, fmt.Errorf("webhook: events/subscribe %q: %w", p.Name, err)
	}
	r.Add(res.ID, append([]Secret{secret}, previous...)...)
	return &res, nil
}

// Unsubscribe sends events/unsubscribe for the subscription with p's name,
// arguments and URL, and makes r refuse its deliveries.
func Unsubscribe(ctx context.Context, cs *mcp.ClientSession, r *Receiver, id string, p *events.UnsubscribeParams) error {
	r.Remove(id)
	if err := cs.Call(ctx, events.MethodUnsubscribe, p, nil); err != nil {
		return fmt.Errorf("webhook: events/unsubscribe %q: %w", p.Name, err)
	}
	return nil
}

// KeepOptions configure KeepSubscribed; nil means defaults.
type KeepOptions struct {
	// Cursor, if set, returns the cursor to send with each refresh: the
	// last one the program persisted (nil for null).
	Cursor func() *string
	// Subscribed, if set, is told of each subscribe result.
	Subscribed func(*SubscribeResult)
	// Retry is the first wait after a failed refresh, doubled up to a
	// minute (default 1 s).
	Retry time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// KeepSubscribed subscribes as Subscribe does and refreshes the
// subscription before its refreshBefore (halfway through each grant) until
// ctx is done, which it returns. A refresh that fails with NotFound or
// Unsupported (the type went away or changed) or with any error that is
// not the extension's is tried again after a backoff, as a fresh
// subscribe; Forbidden and InvalidParams end the loop with their error.
func KeepSubscribed(ctx context.Context, cs *mcp.ClientSession, r *Receiver, p *events.SubscribeParams, opts *KeepOptions) error {
	var o KeepOptions
	if opts != nil {
		o = *opts
	}
	o.Retry = positive(o.Retry, time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	backoff := o.Retry
	for {
		q := *p
		if o.Cursor != nil {
			q.Cursor = o.Cursor()
		}
		wait := backoff
		res, err := Subscribe(ctx, cs, r, &q)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			switch events.KindOf(err) {
			case events.KindForbidden, events.KindInvalidParams:
				return err
			}
			backoff = min(2*backoff, time.Minute)
		default:
			backoff = o.Retry
			if o.Subscribed != nil {
				o.Subscribed(res)
			}
			if res.RefreshBefore.NoExpiry() {
				<-ctx.Done()
				return ctx.Err()
			}
			wait = max(res.RefreshBefore.RefreshBefore.Sub(o.Now())/2, 0)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
