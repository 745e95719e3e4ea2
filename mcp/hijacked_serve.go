package mcp

import (
	"context"
	"net/http"

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
		sess.leave()
	}
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
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	// Until the connection is taken, a client that leaves cancels as
	// net/http tells; after, the connection's reader does.
	stop := context.AfterFunc(r.Context(), cancel)
	// The handlers see the request without its body (read already), which
	// would hold net/http's connection buffers.
	hr := r.WithContext(ctx)
	hr.Body, hr.GetBody = http.NoBody, nil
	var check func(params any, decodeErr error) error
	if !checked {
		check = func(params any, decodeErr error) error {
			c := postExchange{h: h, r: hr, server: s}
			return c.checkDecoded(req, params, decodeErr)
		}
	}
	st := &responseStream{cfg: &h.cfg, req: hr, canSSE: true, status: modernStatus, cancel: cancel, queued: true}
	st.onHijackClose = func(*hijackedConn) { cancel() }
	px.stream = st
	released := st.attachWaitLocked(px.w)
	done := make(chan struct{})
	h.active.Add(1) // the request goes on after ServeHTTP returns
	go func() {
		defer h.active.Add(-1)
		defer h.endListen()
		defer cancel()
		defer close(done)
		res, err := s.serveStatelessChecked(withStream(ctx, st), req, st.notify, check)
		st.finish(newResponse(req.ID, res, err))
	}()
	select {
	case <-done:
	case <-released: // hijacked, or detached: nothing writes to px.w any more
	}
	stop()
	return true
}
