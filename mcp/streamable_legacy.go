package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The legacy era of the streamable HTTP transport (2025-03-26 to
// 2025-11-25): sessions, GET streams, DELETE, resumability.

// statelessPeer is the connection of a stateless legacy request: it can
// send notifications on the request's own stream, and nothing else.
type statelessPeer struct{ logger *slog.Logger }

var errStatelessCall = errors.New("mcp: server-to-client requests are not available: the HTTP handler is stateless (StreamableHTTPOptions.Stateless)")

func (statelessPeer) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, errStatelessCall
}

// NewCallID returns an invalid id: a stateless request sends no requests.
func (statelessPeer) NewCallID() jsonrpc2.ID { return jsonrpc2.ID{} }

func (statelessPeer) CallWithID(context.Context, jsonrpc2.ID, string, any) (json.RawMessage, error) {
	return nil, errStatelessCall
}

func (p statelessPeer) Notify(ctx context.Context, method string, params any) error {
	st := streamFromContext(ctx)
	if st == nil {
		return nil
	}
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return err
	}
	if err := st.send(n); err != nil {
		// Notifications are hints: one the response cannot carry (plain
		// JSON, or the client left) is dropped, not an error.
		p.logger.Debug("mcp: notification dropped: no stream can carry it", "method", method, "error", err)
	}
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
	// A stream that takes its connection (hijacked_serve.go) keeps the
	// session in use, and counts as a stream of h, until it closes.
	hijack := h.canHijack(w, r) && sess.holdStream()
	kept := false
	defer func() {
		if hijack && !kept {
			sess.releaseStream()
		}
	}()
	if last := r.Header.Get(headerLastEventID); last != "" {
		kept = sess.resume(w, r, last, hijack)
		return
	}
	st := sess.getStandalone()
	st.mu.Lock()
	st.detachLocked() // a new GET replaces the previous one
	release := st.attachWaitLocked(w)
	if hijack {
		st.onHijackClose = sess.hijackedStreamClosed(st)
	}
	err := st.startSSELocked(true)
	kept, st.onHijackClose = st.hijacked, nil
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
	sess := h.lookupSession(r, sid) // session_store.go
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
	sess.forgetShared(r.Context()) // session_store.go: every instance
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
// is still going, attaches this GET to it. With hijack, the stream may
// take the GET's connection; resume reports whether it did.
func (sess *httpSession) resume(w http.ResponseWriter, r *http.Request, lastID string, hijack bool) (hijacked bool) {
	store := sess.h.cfg.store
	streamID, index, ok := parseEventID(lastID)
	if store == nil || !ok {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "unknown Last-Event-ID "+strconv.Quote(lastID))
		return
	}
	if sess.resumeRemote(w, r, streamID, index) { // session_resume.go: another instance's stream
		return
	}
	st := sess.stream(streamID)
	if st == nil {
		st = &responseStream{cfg: &sess.h.cfg, sess: sess, id: streamID, canSSE: true, done: true}
	}
	st.mu.Lock()
	if (index > st.index || st.lazy) && !st.done { // a lazy stream gave out no id yet
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
	if hijack && len(events) <= maxQueuedEvents/2 {
		// A longer replay is written by net/http, which may block on
		// the client without bound on the number of events.
		st.onHijackClose = sess.hijackedStreamClosed(st)
	}
	// A failed write detaches the stream (and is logged): the client
	// resumes again from the last event it got.
	err := st.startSSELocked(false)
	hijacked, st.onHijackClose = st.hijacked, nil
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
	return hijacked
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
