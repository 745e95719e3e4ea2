package jsonrpc2

import "context"

// Handler goroutines of a connection with a read loop (stdio, in memory)
// are kept for the next request instead of ending with theirs: a new
// goroutine starts with a small stack and grows it (copying it) on every
// request whose handler goes deep, which costs a stdio call about a fifth
// of its CPU. At most maxIdleHandlers wait; they end when the read loop
// does. Connections over a PushStream (HTTP) keep no idle goroutine, so
// an idle session costs none.

// maxIdleHandlers bounds the handler goroutines of one connection waiting
// for a request.
const maxIdleHandlers = 4

// handlerJob is an admitted request for a handler goroutine.
type handlerJob struct {
	ctx context.Context
	req *Request
}

// startHandler runs the admitted request req on a waiting handler
// goroutine of c, or on a new one.
func (c *Conn) startHandler(ctx context.Context, req *Request) {
	if c.work != nil {
		select {
		case c.work <- handlerJob{ctx, req}:
			return
		default:
		}
	}
	go c.runHandler(ctx, req)
}

// runHandler serves req, then, on a connection with a read loop, waits for
// more while fewer than maxIdleHandlers others wait.
func (c *Conn) runHandler(ctx context.Context, req *Request) {
	for {
		if resp := c.serve(ctx, req); resp != nil {
			c.reply(resp)
		}
		c.handlers.Done()
		if c.work == nil {
			return
		}
		if c.idle.Add(1) > maxIdleHandlers {
			c.idle.Add(-1)
			return
		}
		select {
		case job := <-c.work:
			c.idle.Add(-1)
			ctx, req = job.ctx, job.req
		case <-c.readDone.wait(): // no request can arrive any more
			c.idle.Add(-1)
			return
		}
	}
}
