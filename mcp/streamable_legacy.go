package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The legacy era of the streamable HTTP transport (2025-03-26 to
// 2025-11-25): sessions, GET streams, DELETE, resumability.

// serveLegacyPOST serves a POST of the legacy era. s is the Server already
// chosen for the request, or nil.
func (h *StreamableHTTPHandler) serveLegacyPOST(w http.ResponseWriter, r *http.Request, s *Server, msg jsonrpc2.Message, sid, pv string, accept acceptSet) {
	if sid != "" && !h.opts.Stateless {
		sess := h.session(sid)
		if sess == nil || !sess.enter() {
			writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session not found: it expired or was deleted; send initialize to start a new one")
			return
		}
		defer sess.leave()
		if pv != "" && (isModernVersion(pv) || !sess.ss.server.supports(pv)) {
			writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unsupported MCP-Protocol-Version "+strconv.Quote(pv))
			return
		}
		sess.servePOST(w, r, msg, accept)
		return
	}
	if s == nil {
		if s = h.server(w, r); s == nil {
			return
		}
	}
	if pv != "" && (isModernVersion(pv) || !s.supports(pv)) {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unsupported MCP-Protocol-Version "+strconv.Quote(pv))
		return
	}
	if h.opts.Stateless {
		h.serveStatelessLegacy(w, r, s, msg, pv, accept)
		return
	}
	req, ok := msg.(*jsonrpc2.Request)
	if !ok || req.Method != MethodInitialize {
		resp := &jsonrpc2.Response{Error: newError(CodeInvalidRequest, "missing Mcp-Session-Id header: send initialize first (protocol 2025-11-25 and earlier), or the per-request _meta and MCP-Protocol-Version header of 2026-07-28")}
		if ok {
			resp.ID = req.ID
		}
		writeJSONResponse(w, http.StatusBadRequest, resp)
		return
	}
	h.startSession(w, r, s, req, accept)
}

// startSession creates a session for an initialize request. The session
// is kept only if initialize succeeds.
func (h *StreamableHTTPHandler) startSession(w http.ResponseWriter, r *http.Request, s *Server, req *jsonrpc2.Request, accept acceptSet) {
	sess := h.newHTTPSession(s)
	sess.startExpiry(h.opts.SessionTimeout)
	if !h.addSession(sess) {
		sess.Close()
		writeHTTPError(w, http.StatusServiceUnavailable, CodeInternalError, "server is shutting down")
		return
	}
	sess.enter()
	defer sess.leave()
	w.Header()[headerSessionID] = []string{sess.id}
	if resp := sess.serveRequest(w, r, req, accept); resp == nil || resp.Error != nil {
		sess.Close()
		return
	}
	s.addSession(sess.ss)
}

// servePOST serves a POST of a session: responses to the server's
// requests, notifications, a request, or (2025-03-26) a batch.
func (sess *httpSession) servePOST(w http.ResponseWriter, r *http.Request, msg jsonrpc2.Message, accept acceptSet) {
	switch m := msg.(type) {
	case *jsonrpc2.Response:
		sess.deliver(m)
		w.WriteHeader(http.StatusAccepted)
	case *jsonrpc2.Request:
		if m.IsNotification() {
			_, _ = sess.ss.handle(notificationContext(r), m)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sess.serveRequest(w, r, m, accept)
	case jsonrpc2.Batch:
		if !sess.ss.allowBatch() {
			writeJSONResponse(w, http.StatusBadRequest, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.ErrBatchNotAllowed))
			return
		}
		sess.serveBatch(w, r, m)
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
func (sess *httpSession) serveRequest(w http.ResponseWriter, r *http.Request, req *jsonrpc2.Request, accept acceptSet) *jsonrpc2.Response {
	h := sess.h
	ctx, refusal := sess.admit(context.WithoutCancel(r.Context()), req.ID)
	if refusal != nil {
		status := http.StatusBadRequest
		if refusal.Message == jsonrpc2.ErrBusy.Error() {
			status = http.StatusTooManyRequests
		}
		resp := &jsonrpc2.Response{ID: req.ID, Error: refusal}
		writeJSONResponse(w, status, resp)
		return resp
	}
	canSSE := accept.sse && !h.opts.JSONResponse
	resumable := canSSE && h.opts.EventStore != nil && req.Method != MethodInitialize
	st := &responseStream{h: h, req: r, canSSE: canSSE}
	sess.newStream(st, resumable)
	ctx = withStream(ctx, st)
	if !resumable {
		st.attachLocked(w)
		defer sess.release(req.ID)
		res, err := sess.ss.handleRequest(ctx, req)
		resp := newResponse(req.ID, res, err)
		st.finish(resp)
		return resp
	}
	// A resumable stream starts at once with its priming event, and the
	// handler runs on its own goroutine: the HTTP response may end first
	// (client gone, or CloseSSEStream) while the stream goes on.
	st.mu.Lock()
	release := st.attachWaitLocked(w)
	err := st.startSSELocked(true)
	st.mu.Unlock()
	if err != nil {
		st.detach(w)
	}
	h.active.Add(1)
	entered := sess.enter()
	go func() {
		defer h.active.Add(-1)
		if entered {
			defer sess.leave()
		}
		defer sess.release(req.ID)
		res, err := sess.ss.handleRequest(ctx, req)
		st.finish(newResponse(req.ID, res, err))
	}()
	select {
	case <-release:
	case <-r.Context().Done():
		st.detach(w)
	}
	return nil
}

// serveBatch serves a batch (protocol 2025-03-26): responses are
// delivered, notifications handled, and the requests handled concurrently
// and answered together with one JSON array.
func (sess *httpSession) serveBatch(w http.ResponseWriter, r *http.Request, batch jsonrpc2.Batch) {
	var reqs []*jsonrpc2.Request
	for _, msg := range batch {
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			sess.deliver(m)
		case *jsonrpc2.Request:
			if m.IsNotification() {
				_, _ = sess.ss.handle(notificationContext(r), m)
			} else {
				reqs = append(reqs, m)
			}
		}
	}
	if len(reqs) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	out := make(jsonrpc2.Batch, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		ctx, refusal := sess.admit(context.WithoutCancel(r.Context()), req.ID)
		if refusal != nil {
			out[i] = &jsonrpc2.Response{ID: req.ID, Error: refusal}
			continue
		}
		// Messages related to a batched request go to the GET stream.
		st := &responseStream{h: sess.h, req: r, sess: sess}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sess.release(req.ID)
			res, err := sess.ss.handleRequest(withStream(ctx, st), req)
			out[i] = newResponse(req.ID, res, err)
		}()
	}
	wg.Wait()
	writeJSONResponse(w, http.StatusOK, out)
}

// serveStatelessLegacy serves a legacy POST without a session: the
// request is handled by a session made for it alone, as if initialize had
// negotiated the version in the MCP-Protocol-Version header (2025-03-26
// when absent, as the transport specifies).
func (h *StreamableHTTPHandler) serveStatelessLegacy(w http.ResponseWriter, r *http.Request, s *Server, msg jsonrpc2.Message, pv string, accept acceptSet) {
	req, ok := msg.(*jsonrpc2.Request)
	if !ok {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "stateless server: batches and responses are not accepted")
		return
	}
	ss := &ServerSession{server: s, conn: statelessPeer{}}
	if req.Method != MethodInitialize {
		if pv == "" {
			pv = Version20250326
		}
		ss.version = pv
		ss.era.Store(eraLegacy)
		ss.initialized.Store(true)
	}
	if req.IsNotification() {
		_, _ = ss.handle(notificationContext(r), req)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st := &responseStream{h: h, req: r, canSSE: accept.sse && !h.opts.JSONResponse}
	st.attachLocked(w)
	res, err := ss.handleRequest(withStream(r.Context(), st), req)
	st.finish(newResponse(req.ID, res, err))
}

// statelessPeer is the connection of a stateless legacy request: it can
// send notifications on the request's own stream, and nothing else.
type statelessPeer struct{}

var errStatelessCall = errors.New("mcp: server-to-client requests are not available: the HTTP handler is stateless (StreamableHTTPOptions.Stateless)")

func (statelessPeer) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, errStatelessCall
}

func (statelessPeer) Notify(ctx context.Context, method string, params any) error {
	st := streamFromContext(ctx)
	if st == nil {
		return nil
	}
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return err
	}
	_ = st.send(n) // dropped when the response is plain JSON
	return nil
}

func (statelessPeer) CancelIncoming(jsonrpc2.ID) {}
func (statelessPeer) Close() error               { return nil }
func (statelessPeer) Wait() error                { return nil }
func (statelessPeer) Done() <-chan struct{}      { return closedChan }

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// serveGET opens a session's GET stream, or resumes a stream with
// Last-Event-ID.
func (h *StreamableHTTPHandler) serveGET(w http.ResponseWriter, r *http.Request) {
	sess, ok := h.requestSession(w, r)
	if !ok {
		return
	}
	if !parseAccept(r.Header["Accept"]).sse {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list text/event-stream")
		return
	}
	defer sess.leave()
	if last := r.Header.Get(headerLastEventID); last != "" {
		sess.resume(w, r, last)
		return
	}
	st := sess.getStandalone()
	st.mu.Lock()
	st.detachLocked() // a new GET replaces the previous one
	release := st.attachWaitLocked(w)
	err := st.startSSELocked(true)
	st.mu.Unlock()
	if err != nil {
		st.detach(w)
		return
	}
	select {
	case <-release:
	case <-r.Context().Done():
	case <-sess.done:
	}
	st.detach(w)
}

// requestSession returns the session a GET or DELETE names, answering the
// errors. The caller must call leave on it.
func (h *StreamableHTTPHandler) requestSession(w http.ResponseWriter, r *http.Request) (*httpSession, bool) {
	if h.opts.Stateless {
		w.Header().Set("Allow", "POST")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "stateless server: only POST is served")
		return nil, false
	}
	sid := r.Header.Get(headerSessionID)
	if sid == "" {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "missing Mcp-Session-Id header")
		return nil, false
	}
	sess := h.session(sid)
	if sess == nil || !sess.enter() {
		writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session not found")
		return nil, false
	}
	if pv := r.Header.Get(headerProtocolVersion); pv != "" && (isModernVersion(pv) || !sess.ss.server.supports(pv)) {
		sess.leave()
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unsupported MCP-Protocol-Version "+strconv.Quote(pv))
		return nil, false
	}
	return sess, true
}

// serveDELETE ends a session.
func (h *StreamableHTTPHandler) serveDELETE(w http.ResponseWriter, r *http.Request) {
	sess, ok := h.requestSession(w, r)
	if !ok {
		return
	}
	sess.leave()
	sess.Close()
	w.WriteHeader(http.StatusNoContent)
}

// endStandalone ends the GET stream's HTTP response, if one is attached.
func (sess *httpSession) endStandalone() {
	sess.mu.Lock()
	st := sess.standalone
	sess.mu.Unlock()
	if st != nil {
		st.mu.Lock()
		st.detachLocked()
		st.mu.Unlock()
	}
}

// parseEventID splits an event id "<stream>_<index>".
func parseEventID(id string) (stream string, index int, ok bool) {
	i := strings.LastIndexByte(id, '_')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return id[:i], n, true
}

// resume replays the events of a stream after lastID and, if the stream
// is still going, attaches this GET to it.
func (sess *httpSession) resume(w http.ResponseWriter, r *http.Request, lastID string) {
	store := sess.h.opts.EventStore
	streamID, index, ok := parseEventID(lastID)
	if store == nil || !ok {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unknown Last-Event-ID "+strconv.Quote(lastID))
		return
	}
	st := sess.stream(streamID)
	if st == nil {
		st = &responseStream{h: sess.h, sess: sess, id: streamID, canSSE: true, done: true}
	}
	st.mu.Lock()
	if index > st.index && !st.done {
		st.mu.Unlock()
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unknown Last-Event-ID "+strconv.Quote(lastID))
		return
	}
	var events [][]byte
	if st.done || index < st.index { // else: a live stream, nothing missed
		for data, err := range store.After(r.Context(), sess.id, streamID, index) {
			if err != nil {
				st.mu.Unlock()
				writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "cannot resume stream: "+err.Error())
				return
			}
			events = append(events, data)
		}
	}
	st.detachLocked()
	release := st.attachWaitLocked(w)
	err := st.startSSELocked(false)
	for i, data := range events {
		if err != nil {
			break
		}
		st.evbuf = appendSSEEvent(st.evbuf[:0], "message", st.eventID(index+1+i), data)
		err = st.writeLocked(st.evbuf)
	}
	if st.done {
		st.detachLocked()
	}
	st.mu.Unlock()
	select {
	case <-release:
	case <-r.Context().Done():
	case <-sess.done:
	}
	st.detach(w)
}

// isOversizedBatch reports whether body is a JSON array of more messages
// than a batch may hold.
func isOversizedBatch(body []byte) bool {
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) == 0 || body[0] != '[' {
		return false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	n := 0
	for dec.PeekKind() != ']' && dec.PeekKind() != 0 {
		if err := dec.SkipValue(); err != nil {
			return false
		}
		if n++; n > jsonrpc2.MaxBatchLen {
			return true
		}
	}
	return false
}
