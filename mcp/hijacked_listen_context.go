package mcp

import (
	"context"
	"sync"
	"time"
)

// A listenContext is the context of a subscriptions/listen request served
// on a goroutine of its own (StreamableHTTPHandler.runListen): the values of its HTTP
// request's context, without its cancellation (the request outlives
// ServeHTTP), plus its stream, cancelled once. It stands in for
// context.WithCancel(context.WithoutCancel(r.Context())) and withStream in
// one small object, since an open stream holds it for its whole life.
//
// It implements AfterFunc, so that contexts derived from it with
// context.WithCancel and context.AfterFunc need no goroutine to watch it.
type listenContext struct {
	values context.Context // the request's context: values only
	st     *responseStream
	done   chan struct{}

	mu       sync.Mutex
	canceled bool
	afters   *listenAfter // registered by AfterFunc, not run yet: a list
}

// A listenAfter is a function registered with listenContext.AfterFunc.
type listenAfter struct {
	f    func()
	next *listenAfter
}

// newListenContext returns the context of the listen stream st, whose
// values are those of the request context values.
func newListenContext(values context.Context, st *responseStream) *listenContext {
	return &listenContext{values: values, st: st, done: make(chan struct{})}
}

// Deadline reports no deadline: a listen stream lasts until it is
// cancelled.
func (c *listenContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done returns the channel closed when the stream is cancelled.
func (c *listenContext) Done() <-chan struct{} { return c.done }

// Err returns context.Canceled once the stream is cancelled, else nil.
func (c *listenContext) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// Value returns the stream for the stream key, else the request context's
// value.
func (c *listenContext) Value(key any) any {
	if _, ok := key.(streamKey); ok {
		return c.st
	}
	return c.values.Value(key)
}

// cancel cancels the context, once, and runs the functions registered
// with AfterFunc, each on a goroutine of its own as context.AfterFunc does.
func (c *listenContext) cancel() {
	c.mu.Lock()
	if c.canceled {
		c.mu.Unlock()
		return
	}
	c.canceled = true
	afters := c.afters
	c.afters = nil
	close(c.done)
	c.mu.Unlock()
	for a := afters; a != nil; a = a.next {
		go a.f()
	}
}

// cancelStream is the stream's cancel: it cancels the context and
// interrupts the listener's wait on the stream's connection.
func (c *listenContext) cancelStream() {
	c.cancel()
	c.st.interruptWatch()
}

// hijackClosed is what runs when the stream's hijacked connection closes:
// the client left, and the context is cancelled.
func (c *listenContext) hijackClosed(*hijackedConn) { c.cancel() }

// AfterFunc arranges for f to run on a goroutine of its own once the
// context is cancelled (at once if it is already), and returns the
// function that stops that, as context.AfterFunc does.
func (c *listenContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	if c.canceled {
		c.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	a := &listenAfter{f: f, next: c.afters}
	c.afters = a
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for p := &c.afters; *p != nil; p = &(*p).next {
			if *p == a {
				*p = a.next
				return true
			}
		}
		return false
	}
}

// String names the context, for debugging.
func (c *listenContext) String() string { return "mcp.listenContext" }
