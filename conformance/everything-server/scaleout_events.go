package main

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
)

// tickCountKey is the Redis counter of emit_tick, one for all instances.
const tickCountKey = "everything-server:ticks"

// eventLog returns the log of test.tick every instance shares on Redis
// (the Backend's EventLog, closed by close), or nil without Redis: the
// events server then keeps its own memory log.
func (s *scaleOut) eventLog() events.Log {
	if s == nil || s.backend == nil {
		return nil
	}
	return s.log
}

// webhookRegistry returns the webhook subscriptions every instance shares
// on Redis, whose Claim lets one instance alone deliver each occurrence,
// or nil without Redis (a memory registry then).
func (s *scaleOut) webhookRegistry() webhook.Registry {
	if s == nil || s.backend == nil {
		return nil
	}
	return s.backend.WebhookRegistry()
}

// nextTick returns emit_tick's next n: an INCR of one counter for all
// instances on Redis, so that no two ticks anywhere share an n, else
// local's next. Unlike list changes it does not fall back to local when
// Redis fails: that n could repeat one another instance gave.
func (s *scaleOut) nextTick(ctx context.Context, local *atomic.Int64) (int64, error) {
	if s == nil || s.client == nil {
		return local.Add(1), nil
	}
	n, err := s.client.Incr(ctx, tickCountKey).Result()
	if err != nil {
		return 0, fmt.Errorf("counting a tick on Redis: %w", err)
	}
	return n, nil
}
