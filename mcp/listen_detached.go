package mcp

import "context"

// A 2026-07-28 subscriptions/listen stream on a hijacked connection, with
// no middleware to see its messages, is written by its broadcasters; what
// its request does for the rest of the stream's life is wait for the
// client to leave (or the server to close). The goroutine serving the
// request went through decoding and dispatch, whose peak grows its stack
// to 8 KiB, and the runtime keeps that stack while the goroutine waits
// deep in the dispatch. So the request hands the wait to a goroutine of
// its own, which starts with a small stack, and returns: an open listen
// stream then holds half the stack it did.
//
// The hand-off travels as an error, a *detachedListen, from the listener
// up through the dispatch (which passes errors through unchanged when no
// middleware is installed) to the handler's runListen, which starts the
// waiting goroutine. That goroutine ends the request as the dispatch
// would have: the listener unregistered, the result completed and
// identifying the server.

// A detachedListen is what a listen request returns when its stream's
// wait is handed off: what the wait needs.
type detachedListen struct {
	ctx           context.Context
	s             *Server
	l             *listener
	hc            *hijackedConn
	interruptible bool
}

var _ error = (*detachedListen)(nil)

func (*detachedListen) Error() string {
	return "mcp: a subscriptions/listen stream waits apart from its request"
}

// finish waits for the stream's end, unregisters the listener, and
// returns what the dispatch would have made of the request's result
// (server_dispatch.go).
func (d *detachedListen) finish() (any, error) {
	err := d.l.waitDirect(d.ctx, d.s, d.hc, d.interruptible)
	d.s.listeners.remove(d.l)
	if err != nil {
		return nil, err
	}
	res := d.l.result()
	res.ResultType = "complete" // as ServerSession.serve completes it
	return d.s.withServerInfo(res, nil)
}
