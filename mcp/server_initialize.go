package mcp

import (
	"context"
	"sync"
	"sync/atomic"

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
// initialize, has been served, and remembers the requests that arrived
// before a later initialize.
type initBarrier struct {
	seen     bool          // the first message has been received
	wait     chan struct{} // closed when initialize was served; nil if the first message was not initialize
	initSeen bool          // an initialize has been received

	hasEarly atomic.Bool
	mu       sync.Mutex
	early    map[jsonrpc2.ID]bool // requests received before initialize, until routed
}

// received is called on the connection's reading goroutine with every
// incoming message, in order, before any is handled.
func (ss *ServerSession) received(req *jsonrpc2.Request) {
	b := &ss.barrier
	isInit := req.Method == MethodInitialize && !req.IsNotification()
	if !b.seen {
		b.seen = true
		if isInit {
			b.wait = make(chan struct{})
		}
	}
	switch {
	case b.initSeen || req.IsNotification() || ss.era.Load() != eraUndecided:
	case isInit:
		b.initSeen = true
	default:
		b.mu.Lock()
		if b.early == nil {
			b.early = make(map[jsonrpc2.ID]bool)
		}
		b.early[req.ID] = true
		b.mu.Unlock()
		b.hasEarly.Store(true)
	}
}

// arrivedEarly reports, once, whether the request with id arrived before
// any initialize on the connection.
func (ss *ServerSession) arrivedEarly(id jsonrpc2.ID) bool {
	b := &ss.barrier
	if !b.hasEarly.Load() {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.early[id] {
		return false
	}
	delete(b.early, id)
	return true
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
	case <-ss.barrier.wait: // the usual case: no need for ctx.Done
		return nil
	default:
	}
	select {
	case <-ss.barrier.wait:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
