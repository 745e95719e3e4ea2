package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/ext/events"
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
// occurrence of it with the next n each call.
func addEvents(srv *mcp.Server) {
	// Clients poll it every second, the floor they apply anyway.
	es := events.NewServer(srv, &events.ServerOptions{PollInterval: time.Second})
	es.AddTypes(events.NewType[struct{}, tick](tickEvent, "A tick: emit_tick emits one, n counting them from 1", nil))
	var n atomic.Int64
	srv.AddTools(mcp.NewStructuredTool("emit_tick", "Emit one occurrence of the event type test.tick, with the next n",
		func(ctx context.Context, _ *mcp.ServerSession, _ struct{}) (tick, error) {
			t := tick{N: int(n.Add(1))}
			_, err := es.Emit(ctx, tickEvent, t, nil)
			return t, err
		}))
}
