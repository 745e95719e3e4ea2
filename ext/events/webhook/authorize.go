package webhook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomcp/sdk/ext/events"
)

// DefaultReauthorizeEvery is how often, at most, a Service asks
// ServiceOptions.Authorize again about one subscription when
// ServiceOptions.ReauthorizeEvery is zero.
const DefaultReauthorizeEvery = 5 * time.Minute

// ErrAccessRevoked is the error (tested with errors.Is) with which
// ServiceOptions.Authorize refuses a subscription at delivery time: the
// Service removes the subscription and sends it a terminated envelope with
// Forbidden (data.reason "access revoked").
var ErrAccessRevoked = errors.New("webhook: access revoked")

// revokedReason is the data.reason of the terminated envelope of a
// subscription whose access was revoked.
const revokedReason = "access revoked"

// authState is what one subscription's worker knows of its authorization.
type authState struct {
	at time.Time // when Authorize last permitted delivery; zero: not yet
}

// authorize asks ServiceOptions.Authorize whether sub's principal may still
// receive its events, if it has not answered yes within ReauthorizeEvery.
// A refusal ends sub (terminated envelope, removal) and returns an error
// wrapping ErrSubscriptionNotFound; another error of Authorize is
// returned wrapped, and delivery waits for a later check.
func (s *Service) authorize(ctx context.Context, sub *Subscription, st *authState) error {
	if s.opts.Authorize == nil {
		return nil
	}
	now := s.opts.Now()
	if !st.at.IsZero() && now.Sub(st.at) < s.opts.ReauthorizeEvery && !now.Before(st.at) {
		return nil
	}
	err := s.opts.Authorize(ctx, sub.Key.Principal, sub.Clone())
	switch {
	case err == nil:
		st.at = now
		return nil
	case errors.Is(err, ErrAccessRevoked):
		cause := rpcError(events.CodeForbidden, "Forbidden", map[string]string{"reason": revokedReason})
		return s.terminate(ctx, sub, cause)
	default:
		return fmt.Errorf("webhook: authorizing the delivery to %s: %w", sub.ID, err)
	}
}

// Terminate ends the subscription id now, as a revocation does: it is
// removed and sent a terminated envelope with Forbidden whose data.reason
// is reason. It returns an error wrapping ErrSubscriptionNotFound if the
// Registry does not hold id, and an error of the Registry otherwise; a
// failed delivery of the envelope goes to ServiceOptions.OnError (the
// subscription is gone either way).
func (s *Service) Terminate(ctx context.Context, id, reason string) error {
	sub, err := s.opts.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	cause := rpcError(events.CodeForbidden, "Forbidden", map[string]string{"reason": reason})
	if err := s.terminate(ctx, sub, cause); !errors.Is(err, ErrSubscriptionNotFound) || ctx.Err() != nil {
		return err
	}
	return nil
}
