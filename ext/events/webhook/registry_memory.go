package webhook

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryRegistry is the in-memory Registry: subscriptions live as long as
// the process.
type MemoryRegistry struct {
	now func() time.Time

	mu       sync.Mutex
	subs     map[string]*Subscription
	verified map[verificationKey]time.Time
	claims   map[claimKey]time.Time // when each claim expires
	sweepAt  int                    // len(claims) at which expired claims are dropped
}

var _ Registry = (*MemoryRegistry)(nil)

// verificationKey is what a verification is recorded under.
type verificationKey struct{ principal, url string }

// claimKey is what a claim is recorded under.
type claimKey struct{ id, eventID string }

// minSweep is the number of claims below which expired ones are not
// swept.
const minSweep = 64

// NewMemoryRegistry returns an empty in-memory Registry whose clock, for
// expiry, is now (nil for time.Now).
func NewMemoryRegistry(now func() time.Time) *MemoryRegistry {
	if now == nil {
		now = time.Now
	}
	return &MemoryRegistry{
		now: now, subs: map[string]*Subscription{}, verified: map[verificationKey]time.Time{},
		claims: map[claimKey]time.Time{}, sweepAt: minSweep,
	}
}

// Put implements Registry.
func (r *MemoryRegistry) Put(_ context.Context, sub *Subscription) error {
	if sub.ID == "" {
		return fmt.Errorf("webhook: a subscription needs an id")
	}
	c := sub.Clone()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subs[c.ID] = c
	return nil
}

// live returns the stored subscription id if it has not expired, dropping
// it if it has. r.mu is held.
func (r *MemoryRegistry) live(id string) (*Subscription, error) {
	s, ok := r.subs[id]
	if ok && s.Grant.Expired(r.now()) {
		delete(r.subs, id)
		ok = false
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSubscriptionNotFound, id)
	}
	return s, nil
}

// Get implements Registry.
func (r *MemoryRegistry) Get(_ context.Context, id string) (*Subscription, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.live(id)
	if err != nil {
		return nil, err
	}
	return s.Clone(), nil
}

// Update implements Registry. update runs with the registry locked, so it
// must not call the registry.
func (r *MemoryRegistry) Update(_ context.Context, id string, update func(*Subscription) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.live(id)
	if err != nil {
		return err
	}
	c := s.Clone()
	if err := update(c); err != nil {
		return err
	}
	c.ID = id
	r.subs[id] = c
	return nil
}

// Delete implements Registry.
func (r *MemoryRegistry) Delete(_ context.Context, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.live(id); err != nil {
		return err
	}
	delete(r.subs, id)
	return nil
}

// List implements Registry.
func (r *MemoryRegistry) List(_ context.Context, name string) ([]*Subscription, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	var out []*Subscription
	for id, s := range r.subs {
		if s.Grant.Expired(now) {
			delete(r.subs, id)
			continue
		}
		if s.Key.Name == name {
			out = append(out, s.Clone())
		}
	}
	return out, nil
}

// Verification implements Registry.
func (r *MemoryRegistry) Verification(_ context.Context, principal, url string) (time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.verified[verificationKey{principal, url}], nil
}

// SetVerification implements Registry.
func (r *MemoryRegistry) SetVerification(_ context.Context, principal, url string, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := verificationKey{principal, url}
	if at.IsZero() {
		delete(r.verified, k)
	} else {
		r.verified[k] = at
	}
	return nil
}

// Claim implements Registry. Expired claims are dropped whenever their
// number has doubled since the last sweep, so memory stays bounded by the
// claims still held.
func (r *MemoryRegistry) Claim(_ context.Context, id, eventID string, ttl time.Duration) (bool, error) {
	if ttl <= 0 {
		return false, fmt.Errorf("webhook: a claim needs a positive ttl, not %v", ttl)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	k := claimKey{id, eventID}
	if until, ok := r.claims[k]; ok && now.Before(until) {
		return false, nil
	}
	if len(r.claims) >= r.sweepAt {
		for k, until := range r.claims {
			if !now.Before(until) {
				delete(r.claims, k)
			}
		}
		r.sweepAt = max(minSweep, 2*len(r.claims))
	}
	r.claims[k] = now.Add(ttl)
	return true, nil
}
