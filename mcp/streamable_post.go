package mcp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// A postExchange is one POST being served by a StreamableHTTPHandler: the
// HTTP exchange, the message it carries and the protocol revision its
// headers name, then, as routing settles them, the Server, the legacy
// session and the response stream that serve it.
type postExchange struct {
	h      *StreamableHTTPHandler
	w      http.ResponseWriter
	r      *http.Request
	accept acceptSet
	msg    jsonrpc2.Message
	sid    string // the Mcp-Session-Id header
	pv     string // the MCP-Protocol-Version header
	server *Server
	sess   *httpSession
	stream *responseStream
}

// servePOST checks a POST's headers, decodes its body and serves it.
func (h *StreamableHTTPHandler) servePOST(w http.ResponseWriter, r *http.Request) {
	if !isJSONContentType(headerValue(r.Header, "Content-Type")) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	accept := parseAccept(r.Header["Accept"])
	if !accept.json || !accept.sse {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list application/json and text/event-stream")
		return
	}
	msg, ok := h.readMessage(w, r)
	if !ok || !authorize(w, r, h.opts.Authorize, msg) { // http_authorize.go
		return
	}
	px := postExchange{h: h, w: w, r: r, accept: accept, msg: msg,
		sid: headerValue(r.Header, headerSessionID), pv: headerValue(r.Header, headerProtocolVersion)}
	px.serve()
}

// headerValue is h.Get(key) for a key in canonical form, which it does not
// canonicalize again on every request.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// serve routes the POST to the 2026-07-28 era or the legacy one.
func (px *postExchange) serve() {
	req, ok := px.msg.(*jsonrpc2.Request)
	if ok && isModernVersion(px.pv) {
		// Routed by its header: the request metadata is checked on the
		// params the method decodes (serveModern), not probed first.
		if !px.chooseServer() {
			return
		}
		if px.server.servesModern() {
			px.serveModern(req, nil, nil)
			return
		}
	} else if ok && px.sid == "" {
		var p modernProbe
		perr := decodeProbe(req.Params, &p)
		if perr == nil && p.version != "" {
			if !px.chooseServer() {
				return
			}
			if px.server.servesModern() {
				px.serveModern(req, &p, perr)
				return
			}
		}
	}
	px.serveLegacy()
}

// chooseServer picks the Server for the request, answering 400 when
// there is none.
func (px *postExchange) chooseServer() bool {
	if px.server == nil {
		px.server = px.h.server(px.w, px.r)
	}
	return px.server != nil
}

// readMessage reads and decodes the body of a POST, answering the errors.
func (h *StreamableHTTPHandler) readMessage(w http.ResponseWriter, r *http.Request) (jsonrpc2.Message, bool) {
	bp, err := readBody(r, h.opts.MaxBodyBytes)
	if errors.Is(err, errBodyTooLarge) {
		writeHTTPError(w, http.StatusRequestEntityTooLarge, CodeInvalidRequest, "request body larger than the limit")
		return nil, false
	}
	if err != nil {
		writeHTTPError(w, http.StatusBadRequest, CodeParseError, "reading request body: "+err.Error())
		return nil, false
	}
	msg, err := jsonrpc2.Decode(*bp)
	tooMany := err != nil && isOversizedBatch(*bp)
	putBody(bp)
	if err != nil {
		var derr *jsonrpc2.DecodeError
		errors.As(err, &derr)
		status := http.StatusBadRequest
		if tooMany {
			status = http.StatusRequestEntityTooLarge
		}
		resp := jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, err)
		if derr != nil {
			resp.ID = derr.ID
		}
		// A failed write means the client is gone: there is no one to tell.
		_ = writeJSONResponse(w, status, resp)
		return nil, false
	}
	return msg, true
}

// writeJSON answers with status and msg as one JSON object, within the
// handler's write timeout.
func (px *postExchange) writeJSON(status int, msg jsonrpc2.Message) {
	if err := writeJSONWithin(px.w, status, msg, px.h.opts.WriteTimeout); err != nil {
		px.h.opts.Logger.Debug("mcp: a response was lost: writing it failed", "error", err)
	}
}

// checkVersionHeader answers 400 when the MCP-Protocol-Version header
// names a version s does not serve in the legacy era.
func (px *postExchange) checkVersionHeader(s *Server) bool {
	if px.pv != "" && (isModernVersion(px.pv) || !s.supports(px.pv)) {
		writeHTTPError(px.w, http.StatusBadRequest, CodeInvalidRequest, "unsupported MCP-Protocol-Version "+strconv.Quote(px.pv))
		return false
	}
	return true
}

// serveLegacy serves a POST of the legacy era: in a session, without one
// (Stateless), or an initialize that starts one.
func (px *postExchange) serveLegacy() {
	h := px.h
	if px.sid != "" && !h.opts.Stateless {
		sess := h.lookupSession(px.r, px.sid) // session_store.go
		if sess == nil || !sess.enter() {
			writeHTTPError(px.w, http.StatusNotFound, CodeInvalidRequest, "session not found: it expired or was deleted; send initialize to start a new one")
			return
		}
		defer sess.leave()
		if !px.checkVersionHeader(sess.ss.server) {
			return
		}
		px.sess = sess
		px.serveSession()
		return
	}
	if !px.chooseServer() || !px.checkVersionHeader(px.server) {
		return
	}
	if h.opts.Stateless {
		px.serveStatelessLegacy()
		return
	}
	req, ok := px.msg.(*jsonrpc2.Request)
	if !ok || req.Method != MethodInitialize {
		resp := &jsonrpc2.Response{Error: newError(CodeInvalidRequest, "missing Mcp-Session-Id header: send initialize first (protocol 2025-11-25 and earlier), or the per-request _meta and MCP-Protocol-Version header of 2026-07-28")}
		if ok {
			resp.ID = req.ID
		}
		px.writeJSON(http.StatusBadRequest, resp)
		return
	}
	px.startSession(req)
}

// startSession creates a session for an initialize request. The session
// is kept only if initialize succeeds.
func (px *postExchange) startSession(req *jsonrpc2.Request) {
	h := px.h
	sess := h.newHTTPSession(px.server)
	sess.owner = SessionOwnerFromContext(px.r.Context()) // session_owner.go
	if err := h.addSession(sess); err != nil {
		sess.Close()
		if errors.Is(err, errTooManySessions) {
			refuseAtCapacity(px.w, req.ID, err.Error())
			return
		}
		writeHTTPError(px.w, http.StatusServiceUnavailable, CodeInternalError, err.Error())
		return
	}
	sess.startExpiry(h.opts.SessionTimeout)
	sess.enter()
	defer sess.leave()
	px.sess = sess
	px.w.Header()[headerSessionID] = []string{sess.id}
	if resp := px.serveRequest(req); resp == nil || resp.Error != nil {
		sess.Close()
		return
	}
	px.server.addSession(sess.ss)
}

// serveSession serves a POST of a session: responses to the server's
// requests, notifications, a request, or (2025-03-26) a batch.
func (px *postExchange) serveSession() {
	sess := px.sess
	switch m := px.msg.(type) {
	case *jsonrpc2.Response:
		sess.deliver(m)
		px.w.WriteHeader(http.StatusAccepted)
	case *jsonrpc2.Request:
		if m.IsNotification() {
			sess.handleNotification(notificationContext(px.r), m)
			px.w.WriteHeader(http.StatusAccepted)
			return
		}
		px.serveRequest(m)
	case jsonrpc2.Batch:
		if !sess.ss.allowBatch() {
			px.writeJSON(http.StatusBadRequest, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.ErrBatchNotAllowed))
			return
		}
		px.serveBatch(m)
	}
}

// notificationContext is the context of a notification's handler: the
// HTTP request's values, without its cancellation.
func notificationContext(r *http.Request) context.Context {
	return context.WithValue(context.WithoutCancel(r.Context()), httpRequestKey{}, r)
}

// serveRequest serves one request of the session and returns the response
// it sent, or nil when the handler runs on after the HTTP response ended.
//
// The handler's context keeps the HTTP request's values but not its
// cancellation: in the legacy era a client that disconnects has not
// cancelled (it sends notifications/cancelled for that).
func (px *postExchange) serveRequest(req *jsonrpc2.Request) *jsonrpc2.Response {
	h, sess := px.h, px.sess
	ctx, refusal := sess.admit(context.WithoutCancel(px.r.Context()), req)
	if refusal != nil {
		status := http.StatusBadRequest
		if refusal.Message == jsonrpc2.ErrBusy.Error() {
			status = http.StatusTooManyRequests
		}
		resp := &jsonrpc2.Response{ID: req.ID, Error: refusal}
		px.writeJSON(status, resp)
		return resp
	}
	canSSE := px.accept.sse && !h.opts.JSONResponse
	resumable := canSSE && h.opts.EventStore != nil && req.Method != MethodInitialize
	st := &responseStream{cfg: &h.cfg, req: px.r, canSSE: canSSE}
	sess.newStream(st, resumable)
	px.stream = st
	ctx = withStream(ctx, st)
	if !resumable {
		st.attachLocked(px.w)
		defer sess.release(req.ID)
		res, err := sess.ss.handleRequest(ctx, req)
		res, err = sess.syncShared(req, res, err) // session_store.go: before the client can go on elsewhere
		resp := newResponse(req.ID, res, err)
		st.finish(resp)
		return resp
	}
	px.serveDetachable(ctx, req)
	return nil
}

// serveDetachable serves a request on a resumable stream. The handler
// runs on its own goroutine, since the HTTP response may end first (client
// gone, or CloseSSEStream) while the stream goes on. The stream starts,
// with its priming event, when the handler first sends on it or after
// StreamStartDelay (startTimers); a response that comes first is
// one JSON object.
func (px *postExchange) serveDetachable(ctx context.Context, req *jsonrpc2.Request) {
	h, sess, st := px.h, px.sess, px.stream
	st.mu.Lock()
	release := st.attachWaitLocked(px.w)
	delay := h.opts.StreamStartDelay
	if delay < 0 {
		// A failed write detaches the stream (and is logged).
		_ = st.startSSELocked(true)
	} else {
		st.lazy = true
	}
	st.mu.Unlock()
	h.active.Add(1)
	entered := sess.enter()
	h.workers.run(func() { // streamable_workers.go
		defer h.active.Add(-1)
		if entered {
			defer sess.leave()
		}
		res, err := sess.ss.handleRequest(ctx, req)
		res, err = sess.syncShared(req, res, err) // session_store.go
		// Released before the response goes out: a client may use the
		// id again as soon as it has the response.
		sess.release(req.ID)
		st.finish(newResponse(req.ID, res, err))
	})
	px.awaitDetachable(release, delay)
}

// serveBatch serves a batch (protocol 2025-03-26): responses are
// delivered, notifications handled, and the requests handled concurrently
// and answered together with one JSON array.
func (px *postExchange) serveBatch(batch jsonrpc2.Batch) {
	sess := px.sess
	var reqs []*jsonrpc2.Request
	for _, msg := range batch {
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			sess.deliver(m)
		case *jsonrpc2.Request:
			if m.IsNotification() {
				sess.handleNotification(notificationContext(px.r), m)
			} else {
				reqs = append(reqs, m)
			}
		}
	}
	if len(reqs) == 0 {
		px.w.WriteHeader(http.StatusAccepted)
		return
	}
	out := make(jsonrpc2.Batch, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		ctx, refusal := sess.admit(context.WithoutCancel(px.r.Context()), req)
		if refusal != nil {
			out[i] = &jsonrpc2.Response{ID: req.ID, Error: refusal}
			continue
		}
		// Messages related to a batched request go to the GET stream.
		st := &responseStream{cfg: &px.h.cfg, req: px.r, sess: sess}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sess.release(req.ID)
			res, err := sess.ss.handleRequest(withStream(ctx, st), req)
			out[i] = newResponse(req.ID, res, err)
		}()
	}
	wg.Wait()
	_ = sess.saveShared() // session_store.go: a batch may set the log level or subscriptions; a failure is logged there
	px.writeJSON(http.StatusOK, out)
}

// serveStatelessLegacy serves a legacy POST without a session: the
// request is handled by a session made for it alone, as if initialize had
// negotiated the version in the MCP-Protocol-Version header (2025-03-26
// when absent, as the transport specifies).
func (px *postExchange) serveStatelessLegacy() {
	req, ok := px.msg.(*jsonrpc2.Request)
	if !ok {
		writeHTTPError(px.w, http.StatusBadRequest, CodeInvalidRequest, "stateless server: batches and responses are not accepted")
		return
	}
	ss := newServerSession(px.server, statelessPeer{logger: px.h.opts.Logger})
	if req.Method != MethodInitialize {
		pv := px.pv
		if pv == "" {
			pv = Version20250326
		}
		ss.version = pv
		ss.era.Store(eraLegacy)
		ss.initialized.Store(true)
	}
	if req.IsNotification() {
		if _, err := ss.handle(notificationContext(px.r), req); err != nil {
			px.h.opts.Logger.Debug("mcp: notification handler failed", "method", req.Method, "error", err)
		}
		px.w.WriteHeader(http.StatusAccepted)
		return
	}
	st := &responseStream{cfg: &px.h.cfg, req: px.r, canSSE: px.accept.sse && !px.h.opts.JSONResponse}
	st.attachLocked(px.w)
	res, err := ss.handleRequest(withStream(px.r.Context(), st), req)
	st.finish(newResponse(req.ID, res, err))
}
