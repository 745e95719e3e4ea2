package webhook

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultSecretGrace is how long a replaced secret keeps signing after a
// refresh brought a new one, so that a receiver that has not switched yet
// still verifies (dual signing).
const DefaultSecretGrace = 24 * time.Hour

// ErrSubscriptionNotFound is the error (tested with errors.Is) of a
// Registry for a subscription it does not hold, or holds expired. A server
// answers an unsubscribe of such a key with NotFound (data.kind
// "subscription").
var ErrSubscriptionNotFound = errors.New("webhook: subscription not found")

// A Subscription is a webhook subscription as a server keeps it.
type Subscription struct {
	// ID is Key.ID().
	ID string
	// Key is what the subscription is addressed by.
	Key Key
	// Secret is the current secret.
	Secret Secret
	// PreviousSecret is the secret a refresh replaced, which keeps signing
	// until PreviousUntil; zero if none.
	PreviousSecret Secret
	// PreviousUntil ends the grace window of PreviousSecret.
	PreviousUntil time.Time
	// Cursor is the delivery watermark: every event at or before it has
	// been delivered or abandoned. nil is null: from now, no replay.
	Cursor *string
	// Grant is the subscription's lifetime; the zero Grant never expires.
	Grant Grant
	// Status is the delivery bookkeeping.
	Status DeliveryStatus
}

// Secrets returns the secrets that sign a delivery at now: the current one,
// then the previous one while its grace window lasts.
func (s *Subscription) Secrets(now time.Time) []Secret {
	if s.PreviousSecret.IsZero() || !now.Before(s.PreviousUntil) || s.PreviousSecret.Equal(s.Secret) {
		return []Secret{s.Secret}
	}
	return []Secret{s.Secret, s.PreviousSecret}
}

// Rotate makes secret the current one. If it differs from the current one,
// that becomes the previous secret, signing beside the new one until
// now+grace.
func (s *Subscription) Rotate(secret Secret, now time.Time, grace time.Duration) {
	if s.Secret.Equal(secret) {
		return
	}
	if !s.Secret.IsZero() {
		s.PreviousSecret, s.PreviousUntil = s.Secret, now.Add(grace)
	}
	s.Secret = secret
}

// Clone returns a copy of s that shares nothing mutable with it.
func (s *Subscription) Clone() *Subscription {
	c := *s
	if s.Cursor != nil {
		cur := *s.Cursor
		c.Cursor = &cur
	}
	return &c
}

// A Registry holds the webhook subscriptions of a server and the
// verification state of endpoints, so that every instance of the server
// sees the same ones and no-expiry subscriptions survive a restart. The
// in-memory default is NewMemoryRegistry; package webhooktest holds the
// contract tests every implementation passes. A Registry is safe for
// concurrent use, and never returns a subscription whose grant has expired.
type Registry interface {
	// Put stores a copy of sub under sub.ID, replacing any subscription
	// stored there.
	Put(ctx context.Context, sub *Subscription) error
	// Get returns a copy of the subscription with the given id, or an
	// error wrapping ErrSubscriptionNotFound.
	Get(ctx context.Context, id string) (*Subscription, error)
	// Update changes the subscription with the given id atomically: it
	// calls update with a copy and stores the copy if update returns nil.
	// update may be called more than once (an implementation may retry on
	// a conflicting write), and must not keep the pointer. It returns an
	// error wrapping ErrSubscriptionNotFound for an unknown id, and
	// update's error otherwise.
	Update(ctx context.Context, id string, update func(*Subscription) error) error
	// Delete removes the subscription with the given id, or returns an
	// error wrapping ErrSubscriptionNotFound.
	Delete(ctx context.Context, id string) error
	// List returns copies of the subscriptions to the event type name, in
	// no particular order.
	List(ctx context.Context, name string) ([]*Subscription, error)
	// Verification returns when the endpoint url was verified for
	// principal, or the zero time if it was not.
	Verification(ctx context.Context, principal, url string) (time.Time, error)
	// SetVerification records that url was verified for principal at at;
	// the zero time forgets the verification.
	SetVerification(ctx context.Context, principal, url string, at time.Time) error
	// Claim decides which instance delivers the event eventID to the
	// subscription id, so that a delivery loop running on several
	// instances sends it once: of all the Claims of one (id, eventID)
	// pair, on every instance sharing the registry, one returns true and
	// the others false, until ttl has passed since the one that returned
	// true. ttl should outlast the delivery and its retries
	// (SenderOptions' retry window): after it the event can be claimed
	// again, so that an event whose claimer stopped is not lost for good.
	// ttl must be positive.
	Claim(ctx context.Context, id, eventID string, ttl time.Duration) (bool, error)
}

// Upsert stores sub as events/subscribe does: if the registry holds a
// subscription with sub.ID, it is refreshed (sub.Secret becomes current,
// the replaced secret signing beside it for grace; the grant becomes
// sub.Grant; a suspended delivery is reactivated; the cursor becomes
// sub.Cursor unless that is nil) and Upsert returns it with refreshed true;
// otherwise sub is stored as new.
func Upsert(ctx context.Context, reg Registry, sub *Subscription, now time.Time, grace time.Duration) (stored *Subscription, refreshed bool, err error) {
	err = reg.Update(ctx, sub.ID, func(s *Subscription) error {
		s.Rotate(sub.Secret, now, grace)
		s.Grant = sub.Grant
		s.Status.Reactivate()
		if sub.Cursor != nil {
			cur := *sub.Cursor
			s.Cursor = &cur
		}
		stored = s.Clone()
		return nil
	})
	switch {
	case err == nil:
		return stored, true, nil
	case !errors.Is(err, ErrSubscriptionNotFound):
		return nil, false, fmt.Errorf("webhook: refreshing %s: %w", sub.ID, err)
	}
	if err := reg.Put(ctx, sub); err != nil {
		return nil, false, fmt.Errorf("webhook: storing %s: %w", sub.ID, err)
	}
	return sub.Clone(), false, nil
}
