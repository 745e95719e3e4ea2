package webhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/gomcp/sdk/ext/events"
)

// DefaultMaxSubscriptions is how many webhook subscriptions one principal
// may hold, over all event types, when ServiceOptions.MaxSubscriptions is
// zero.
const DefaultMaxSubscriptions = 100

// quotaLimit is the data.limit of the ResourceExhausted error a quota
// gives.
const quotaLimit = "subscriptions"

// quotaData is the data of the ResourceExhausted error a quota gives.
type quotaData struct {
	Limit string `json:"limit"`
	Max   int    `json:"max"`
}

// MaxSubscriptionsFor returns the number of subscriptions to the event
// type name that one principal may hold: the type's own limit
// (ServiceOptions.MaxSubscriptionsPerType) if it has one and it is lower
// than the overall limit, else the overall one; 0 means no limit.
func (s *Service) MaxSubscriptionsFor(name string) int {
	overall := s.opts.MaxSubscriptions
	if overall < 0 {
		overall = 0
	}
	if own, ok := s.opts.MaxSubscriptionsPerType[name]; ok && own > 0 && (overall == 0 || own < overall) {
		return own
	}
	return overall
}

// admit returns ResourceExhausted (data.limit "subscriptions", data.max)
// if principal may not add the subscription id to the type name: it
// already holds the overall limit of subscriptions, or the type's own
// limit of subscriptions to name. A refresh of a subscription that exists
// is always admitted. The counts are read from the Registry, so they cover
// the subscriptions made on every instance sharing it.
func (s *Service) admit(ctx context.Context, principal, name, id string) error {
	overall, perType := s.opts.MaxSubscriptions, s.opts.MaxSubscriptionsPerType[name]
	if overall <= 0 && perType <= 0 {
		return nil
	}
	if _, err := s.opts.Registry.Get(ctx, id); err == nil {
		return nil
	} else if !errors.Is(err, ErrSubscriptionNotFound) {
		return fmt.Errorf("webhook: reading %s: %w", id, err)
	}
	es := s.server()
	if es == nil {
		return errors.New("webhook: the Service is not running (call Run with the events.Server)")
	}
	total, ofType := 0, 0
	for _, n := range s.names(ctx, es) {
		subs, err := s.opts.Registry.List(ctx, n)
		if err != nil {
			return fmt.Errorf("webhook: counting the subscriptions of %s: %w", n, err)
		}
		for _, sub := range subs {
			if sub.Key.Principal != principal {
				continue
			}
			total++
			if n == name {
				ofType++
			}
		}
	}
	switch {
	case perType > 0 && ofType >= perType:
		return exhausted(perType, fmt.Sprintf("at most %d subscriptions to %s", perType, name))
	case overall > 0 && total >= overall:
		return exhausted(overall, fmt.Sprintf("at most %d subscriptions", overall))
	}
	return nil
}

// exhausted returns the ResourceExhausted error of a quota of max.
func exhausted(max int, what string) error {
	return rpcError(events.CodeResourceExhausted, "ResourceExhausted: a principal may hold "+what, quotaData{Limit: quotaLimit, Max: max})
}
