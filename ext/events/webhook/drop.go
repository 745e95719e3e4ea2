package webhook

import (
	"context"
	"time"

	"github.com/gomcp/sdk/ext/events"
)

// DefaultDropFailingAfter is how long the deliveries of a no-expiry
// subscription may keep failing, suspended, before the Service drops it,
// when ServiceOptions.DropFailingAfter is zero.
const DefaultDropFailingAfter = 24 * time.Hour

// dropDue reports whether sub is to be dropped at now for sustained
// delivery failure: it never expires (a subscription with a grant ends
// anyway unless refreshed, and a refresh resumes it), its delivery is
// suspended, and its run of failures began after at least after ago.
// after ≤ 0 never drops.
func dropDue(sub *Subscription, now time.Time, after time.Duration) bool {
	st := &sub.Status
	return after > 0 && sub.Grant.NoExpiry() && st.Suspended && !st.FailedSince.IsZero() && now.Sub(st.FailedSince) >= after
}

// drop ends sub for sustained delivery failure: the terminated envelope,
// one last try, carries CallbackEndpointError with data.reason the
// category of its last failure.
func (s *Service) drop(ctx context.Context, sub *Subscription) error {
	cause := rpcError(events.CodeCallbackEndpointError,
		"CallbackEndpointError: deliveries failing since "+formatTime(sub.Status.FailedSince),
		map[string]string{"reason": string(sub.Status.LastError)})
	return s.terminate(ctx, sub, cause)
}
