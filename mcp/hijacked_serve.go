package mcp

import (
	"context"
	"net/http"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The two long-lived streams that take their connection from net/http
// (hijacked_stream.go): a legacy session's GET stream and a 2026-07-28
// subscriptions/listen stream.

// hijackedStreamClosed returns what runs when the hijacked connection of
// the session's stream st closes: the stream is detached (the client may
// resume it), and the session, kept in use while the stream was open, is
// released.
func (sess *httpSession) hijackedStreamClosed(st *responseStream) func(*hijackedConn) {
	return func(hc *hijackedConn) {
		st.mu.Lock()
		if st.hc == hc {
			st.detachLocked()
		}
		st.mu.Unlock()
		sess.releaseStream()
	}
}

// holdStream keeps the session in use, and counts a stream of its handler
// in progress, for a GET stream that may outlive its ServeHTTP; it
// reports false if the session is closed.
func (sess *httpSession) holdStream() bool {
	if !sess.enter() {
		return false
	}
	sess.h.active.Add(1)
	sess.h.streaming.Add(1)
	return true
}

// releaseStream undoes holdStream.
func (sess *httpSession) releaseStream() {
	sess.h.streaming.Add(-1)
	sess.h.active.Add(-1)
	sess.leave()
}

// serveListenHijacked serves a subscriptions/listen request whose stream
// may take its connection: the request is served on a goroutine of its
// own, with a context of its own that the client's going away cancels,
// and ServeHTTP returns once the stream has its connection (or the
// request ended without one). It reports false, having done nothing, when
// the stream cannot take its connection. checked says the request
// metadata was checked already; otherwise it is checked on the params the
// method decodes.
func (px *postExchange) serveListenHijacked(req *jsonrpc2.Request, checked bool) bool {
	h, r, s := px.h, px.r, px.server
	if !px.accept.sse || !h.canHijack(px.w, r) {
		return false
	}
	if !h.admitListen() {
		refuseAtCapacity(px.w, req.ID, "too many subscriptions/listen streams: try again later")
		return true
	}
	st := &responseStream{cfg: &h.cfg, canSSE: true, status: modernStatus, queued: true}
	ctx := newListenContext(r.Context(), st) // hijacked_listen_context.go
	// The handlers see the request without its body (read already), which
	// would hold net/http's connection buffers.
	hr := r.WithContext(ctx)
	hr.Body, hr.GetBody = http.NoBody, nil
	st.req = hr
	var check func(params any, decodeErr error) error
	if !checked {
		check = func(params any, decodeErr error) error {
			c := postExchange{h: h, r: hr, server: s}
			return c.checkDecoded(req, params, decodeErr)
		}
	}
	st.listenDone = ctx.done
	// Ending the stream also interrupts the listener's wait on the
	// connection (waitDirect), without a context.AfterFunc per stream.
	st.cancel = ctx.cancelStream
	st.onHijackClose = ctx.hijackClosed
	st.deferWatch = true // by the listener (subscriptions_listen.go: claimWatch)
	// Once the connection is taken, its reader sees a client leave; if
	// it cannot be taken, net/http tells, as for any request.
	st.onNoHijack = func() { context.AfterFunc(r.Context(), ctx.cancel) }
	px.stream = st
	released := st.attachWaitLocked(px.w)
	h.active.Add(1) // the request goes on after ServeHTTP returns
	go h.runListen(ctx, s, st, req, check)
	// Closed when the stream takes its connection or the request ends
	// (finish detaches the response): nothing writes to px.w after.
	<-released
	return true
}

// runListen serves the listen request req on stream st, on a goroutine of
// its own, and ends the stream with the result. Only req's id outlives
// the decoding of its params, so that an open stream does not hold the
// request's bytes.
func (h *StreamableHTTPHandler) runListen(ctx *listenContext, s *Server, st *responseStream, req *jsonrpc2.Request, check func(any, error) error) {
	id := req.ID
	res, err := s.serveStatelessChecked(ctx, req, st.notify, check)
	if d, ok := err.(*detachedListen); ok {
		// The stream is open and written by its broadcasters: what is
		// left is to wait for its end, on a goroutine that starts with a
		// small stack, and this one ends (detachedListen).
		go h.finishListen(ctx, st, id, d)
		return
	}
	h.endListenRequest(ctx, st, id, res, err)
}

// finishListen waits for the end of a detached listen stream and answers
// its request.
func (h *StreamableHTTPHandler) finishListen(ctx *listenContext, st *responseStream, id jsonrpc2.ID, d *detachedListen) {
	res, err := d.finish()
	h.endListenRequest(ctx, st, id, res, err)
}

// endListenRequest answers the listen request id on st and undoes what
// serveListenHijacked counted.
func (h *StreamableHTTPHandler) endListenRequest(ctx *listenContext, st *responseStream, id jsonrpc2.ID, res any, err error) {
	defer h.active.Add(-1)
	defer h.endListen()
	defer ctx.cancel()
	st.finish(newResponse(id, res, err)) // detaches px.w if it is still attached
}

// interruptsWatch reports whether cancelling st's own context (st.cancel)
// is what ends ctx, a context of its request: then st.cancel interrupts
// a wait on the connection, and no other watch of ctx is needed.
func (st *responseStream) interruptsWatch(ctx context.Context) bool {
	return st.listenDone != nil && ctx.Done() == st.listenDone
}

// interruptWatch interrupts a wait on the stream's hijacked connection
// (waitDirect), if one is claimed.
func (st *responseStream) interruptWatch() {
	st.mu.Lock()
	hc := st.hc
	claimed := hc != nil && hc.claimed
	st.mu.Unlock()
	if claimed {
		hc.interrupt()
	}
}

// claimWatch returns the stream's hijacked connection if no goroutine
// watches its client yet, for the caller to do so; else nil.
func (st *responseStream) claimWatch() *hijackedConn {
	st.mu.Lock()
	defer st.mu.Unlock()
	hc := st.hc
	if hc == nil || !hc.deferWatch || hc.claimed {
		return nil
	}
	hc.claimed = true
	return hc
}

// waitDirect is what the goroutine of a listen stream written by its
// broadcasters does: it watches the client of its hijacked connection, so
// that the stream holds one goroutine, until the client leaves (the
// stream's context is then cancelled), ctx is done or the server closes.
func (l *listener) waitDirect(ctx context.Context, s *Server, hc *hijackedConn, interruptible bool) error {
	if !interruptible {
		stop := context.AfterFunc(ctx, hc.interrupt)
		defer stop()
	}
	l.mu.Lock()
	l.waiting = true
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.waiting = false
		l.mu.Unlock()
	}()
	select {
	case <-s.shutdown: // closed before interruptWaiting could see l
		return nil
	default:
	}
	// A stream ended before its connection was claimed for this wait
	// (claimWatch) interrupted nothing: its end is seen here. One ended
	// since interrupts the connection (interruptWatch), which lasts.
	if ctx.Err() != nil {
		return listenEnd(ctx)
	}
	hc.waitClient()
	return listenEnd(ctx) // nil: interrupted by the server's Close, or ended by the handler
}

// interruptWaiting makes the listeners in waitDirect return, when the
// server closes.
func (ls *listeners) interruptWaiting() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for l := range ls.set {
		l.mu.Lock()
		if l.waiting {
			l.watchConn.interrupt()
		}
		l.mu.Unlock()
	}
}

// notifyDirect writes a notification broadcast to listener l on its
// hijacked stream, on the broadcaster's goroutine: the write never blocks
// (what the socket does not take waits for the connection's writer). A
// broadcast is encoded once for all streams, cut where the subscription
// id goes (broadcastEvent); the caller holds l.mu.
func (st *responseStream) notifyDirect(l *listener, method string, params any) error {
	var event []byte
	var b *broadcastEvent
	switch p := params.(type) {
	case listChange:
		b = listChangeBroadcast(method)
	case *broadcastEvent:
		b = p
	}
	if b != nil {
		bp := chunkPool.Get().(*[]byte)
		defer func() {
			if cap(*bp) <= maxPooledChunk {
				chunkPool.Put(bp)
			}
		}()
		if id := l.subscriptionIDJSON(); id != nil {
			var ok bool
			if *bp, ok = b.appendEvent((*bp)[:0], id); ok {
				event = *bp
			}
		}
		if event == nil {
			params = b.fresh()
		}
	}
	if event == nil {
		if m := metaOf(params); m != nil {
			m.SubscriptionID = l.id
		}
		n, err := jsonrpc2.NewNotification(method, params)
		if err != nil {
			return err
		}
		data, err := jsonrpc2.AppendMessage(nil, n)
		if err != nil {
			return err
		}
		event = appendSSEEvent(nil, "message", "", data)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done || st.hc == nil {
		return errDetached
	}
	return st.writeLocked(event)
}

// listChangeEvents holds the broadcastEvent of each list-change method
// (a few, fixed): a list change carries nothing but the subscription id,
// so every stream's event is the same bytes around its id, and no stream
// keeps a copy of its own.
var listChangeEvents sync.Map // method → *broadcastEvent

// listChangeBroadcast returns the broadcastEvent of a list change of
// method.
func listChangeBroadcast(method string) *broadcastEvent {
	if b, ok := listChangeEvents.Load(method); ok {
		return b.(*broadcastEvent)
	}
	b, _ := listChangeEvents.LoadOrStore(method, &broadcastEvent{
		method: method,
		fresh:  func() any { return &ToolListChangedParams{} },
	})
	return b.(*broadcastEvent)
}

// releaseBuffers drops the stream's encoding buffers, for a stream whose
// events are encoded elsewhere from now on.
func (st *responseStream) releaseBuffers() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.buf, st.evbuf = nil, nil
}
