package redis

import (
	"context"
	"fmt"
	"time"
)

// Claim reports whether this caller delivers the event eventID to the
// subscription id: it sets the key KeyPrefix + "webhook:{" + id +
// "}:claim:" + hash(eventID) with SET NX PX ttl, one atomic command, so of
// the Claims of one pair on every instance sharing the Redis one alone
// returns true until ttl has passed.
func (r *WebhookRegistry) Claim(ctx context.Context, id, eventID string, ttl time.Duration) (bool, error) {
	if !validID(id) {
		return false, errBadID
	}
	if ttl <= 0 {
		return false, fmt.Errorf("mcp/redis: a webhook delivery claim needs a positive ttl, not %v", ttl)
	}
	key := r.b.key("webhook", "{"+id+"}", "claim", digest(eventID))
	won, err := r.b.client.SetNX(ctx, key, "1", ttl).Result()
	if err != nil {
		return false, fmt.Errorf("mcp/redis: claiming a webhook delivery: %w", err)
	}
	return won, nil
}
