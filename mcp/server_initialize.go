package mcp

import (
	"context"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Pipelined initialize. Many clients send initialize,
// notifications/initialized and their first requests without waiting for
// the initialize response. A connection serves requests concurrently, so
// on a connection whose first message is initialize the later requests
// wait until initialize has been answered (a barrier per session, never a
// lock shared between sessions); requests on a connection that did not
// start with initialize are routed at once.

// An initBarrier holds a connection's requests until its first message,
// initialize, has been served.
type initBarrier struct {
	seen bool          // the first message has been received
	wait chan struct{} // closed when initialize was served; nil if the first message was not initialize
}

// received is called on the connection's reading goroutine with every
// incoming message, in order, before any is handled.
func (ss *ServerSession) received(req *jsonrpc2.Request) {
	if ss.barrier.seen {
		return
	}
	ss.barrier.seen = true
	if req.Method == MethodInitialize && !req.IsNotification() {
		ss.barrier.wait = make(chan struct{})
	}
}

// initializeServed opens the barrier, if the session has one.
func (ss *ServerSession) initializeServed() {
	if ss.barrier.wait != nil {
		ss.barrierOnce.Do(func() { close(ss.barrier.wait) })
	}
}

// awaitInitialize waits until a pipelined initialize has been served, or
// ctx is done.
func (ss *ServerSession) awaitInitialize(ctx context.Context) error {
	if ss.barrier.wait == nil {
		return nil
	}
	select {
	case <-ss.barrier.wait:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
