package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// tickEvent is the event type the server offers (the Events extension),
// so that any client can try polling and push streams on it.
const tickEvent = "test.tick"

// tick is the payload of test.tick.
type tick struct {
	// N counts the ticks emit_tick emitted, from 1.
	N int `json:"n"`
}

// addEvents offers the event type test.tick (poll and push; arguments {};
// payload {"n": integer}) and the tool emit_tick, which emits one
// occurrence of it with the next n each call. With hooks, test.tick offers
// webhook delivery too, and the caller runs hooks with the returned Server
// (main does, through newServerWith; webhook subscriptions need a
// principal, which only -conformance-events gives an unauthenticated
// client). On Redis (scale not nil, with a Backend) the occurrences are in
// the log every instance shares and n is counted there, so that the
// instances serve test.tick as one (scaleout_events.go).
func addEvents(srv *mcp.Server, hooks *webhook.Service, scale *scaleOut) *events.Server {
	// Clients poll it every second, the floor they apply anyway.
	opts := &events.ServerOptions{PollInterval: time.Second, Log: scale.eventLog()}
	delivery := []string{events.DeliveryPoll, events.DeliveryPush}
	if hooks != nil {
		opts.Webhooks = hooks
		delivery = append(delivery, events.DeliveryWebhook)
	}
	es := events.NewServer(srv, opts)
	es.AddTypes(events.NewType(tickEvent, "A tick: emit_tick emits one, n counting them from 1",
		&events.TypeOptions[struct{}, tick]{Delivery: delivery}))
	var n atomic.Int64
	srv.AddTools(mcp.NewStructuredTool("emit_tick", "Emit one occurrence of the event type test.tick, with the next n",
		func(ctx context.Context, _ *mcp.ServerSession, _ struct{}) (tick, error) {
			next, err := scale.nextTick(ctx, &n)
			if err != nil {
				return tick{}, err
			}
			t := tick{N: int(next)}
			_, err = es.Emit(ctx, tickEvent, t, nil)
			return t, err
		}))
	return es
}
