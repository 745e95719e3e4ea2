package mcp

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// StreamableServerTransportOptions configure a StreamableServerTransport.
// A nil *StreamableServerTransportOptions means defaults.
type StreamableServerTransportOptions struct {
	// JSONResponse answers every request with a single JSON object.
	JSONResponse bool
	// MaxBodyBytes bounds a request body (default DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// WriteTimeout bounds each write to an SSE stream (default
	// DefaultWriteTimeout; negative means none).
	WriteTimeout time.Duration
}

// A StreamableServerTransport is the server side of one legacy streamable
// HTTP session (2025-03-26 to 2025-11-25), for servers that route sessions
// themselves, for example to keep them in a store of their own. Most
// servers use StreamableHTTPHandler instead, which manages sessions, serves
// 2026-07-28, and costs no goroutine per session.
//
// Connect it to a Server with Server.Connect, and pass it the session's
// HTTP requests (POST, GET, DELETE) with ServeHTTP, after checking the
// Host, Origin and Mcp-Session-Id headers. Responses go to the POST of
// their request; other messages from the server go to the GET stream.
type StreamableServerTransport struct {
	sessionID string
	h         *StreamableHTTPHandler // holds the options streams use
	incoming  chan jsonrpc2.Message
	done      chan struct{}
	once      connectOnce

	mu         sync.Mutex
	closed     bool
	waiting    map[jsonrpc2.ID]*responseStream
	standalone *responseStream
}

var _ http.Handler = (*StreamableServerTransport)(nil)

// NewStreamableServerTransport returns the transport of the session
// sessionID, which it sends in the Mcp-Session-Id header of its responses.
func NewStreamableServerTransport(sessionID string, opts *StreamableServerTransportOptions) *StreamableServerTransport {
	var o StreamableServerTransportOptions
	if opts != nil {
		o = *opts
	}
	h := NewStreamableHTTPHandler(nil, &StreamableHTTPOptions{
		JSONResponse: o.JSONResponse, MaxBodyBytes: o.MaxBodyBytes, WriteTimeout: o.WriteTimeout,
	})
	return &StreamableServerTransport{
		sessionID: sessionID,
		h:         h,
		incoming:  make(chan jsonrpc2.Message, 16),
		done:      make(chan struct{}),
		waiting:   map[jsonrpc2.ID]*responseStream{},
	}
}

// SessionID returns the ID of the transport's session.
func (t *StreamableServerTransport) SessionID() string { return t.sessionID }

// Connect returns the session's connection. It may be called once.
func (t *StreamableServerTransport) Connect(context.Context) (Connection, error) {
	if err := t.once.claim(); err != nil {
		return nil, err
	}
	return streamableTransportConn{t}, nil
}

// ServeHTTP serves one HTTP request of the session.
func (t *StreamableServerTransport) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		t.servePOST(w, r)
	case http.MethodGet:
		if !parseAccept(r.Header["Accept"]).sse {
			writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list text/event-stream")
			return
		}
		t.serveGET(w, r)
	case http.MethodDelete:
		t.close()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed")
	}
}

func (t *StreamableServerTransport) servePOST(w http.ResponseWriter, r *http.Request) {
	if !isJSONContentType(r.Header.Get("Content-Type")) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	accept := parseAccept(r.Header["Accept"])
	if !accept.json || !accept.sse {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list application/json and text/event-stream")
		return
	}
	msg, ok := t.h.readMessage(w, r)
	if !ok {
		return
	}
	req, isReq := msg.(*jsonrpc2.Request)
	if _, isBatch := msg.(jsonrpc2.Batch); isBatch {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, jsonrpc2.ErrBatchNotAllowed.Error())
		return
	}
	if !isReq || req.IsNotification() {
		if t.push(r.Context(), msg) {
			w.WriteHeader(http.StatusAccepted)
		} else {
			writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session closed")
		}
		return
	}
	st := &responseStream{cfg: &t.h.cfg, req: r, canSSE: accept.sse && !t.h.opts.JSONResponse}
	st.header = func(h http.Header) { h.Set(headerSessionID, t.sessionID) }
	release := st.attachWaitLocked(w)
	t.mu.Lock()
	if t.waiting[req.ID] != nil {
		t.mu.Unlock()
		writeHTTPErrorResponse(w, http.StatusBadRequest, &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidRequest, "request id %s is already in use", req.ID)})
		return
	}
	t.waiting[req.ID] = st
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		if t.waiting[req.ID] == st {
			delete(t.waiting, req.ID)
		}
		t.mu.Unlock()
	}()
	if !t.push(r.Context(), msg) {
		writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session closed")
		return
	}
	select {
	case <-release:
	case <-r.Context().Done():
	case <-t.done:
	}
	st.detach(w)
}

// push queues an incoming message for the session, reporting false if the
// session closed or the request was cancelled first.
func (t *StreamableServerTransport) push(ctx context.Context, msg jsonrpc2.Message) bool {
	select {
	case t.incoming <- msg:
		return true
	case <-t.done:
	case <-ctx.Done():
	}
	return false
}

func (t *StreamableServerTransport) serveGET(w http.ResponseWriter, r *http.Request) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session closed")
		return
	}
	if t.standalone == nil {
		t.standalone = &responseStream{cfg: &t.h.cfg, canSSE: true}
	}
	st := t.standalone
	t.mu.Unlock()
	st.mu.Lock()
	st.detachLocked()
	release := st.attachWaitLocked(w)
	st.header = func(h http.Header) { h.Set(headerSessionID, t.sessionID) }
	err := st.startSSELocked(false)
	st.mu.Unlock()
	if err == nil {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-t.done:
		}
	}
	st.detach(w)
}

func (t *StreamableServerTransport) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		close(t.done)
	}
}

// streamableTransportConn is the Connection of a StreamableServerTransport.
type streamableTransportConn struct{ t *StreamableServerTransport }

func (c streamableTransportConn) Read(ctx context.Context) (jsonrpc2.Message, error) {
	return receive(ctx, c.t.incoming, c.t.done)
}

// Write sends a response to the POST of its request, and any other
// message to the GET stream.
func (c streamableTransportConn) Write(_ context.Context, msg jsonrpc2.Message) error {
	t := c.t
	if resp, ok := msg.(*jsonrpc2.Response); ok {
		t.mu.Lock()
		st := t.waiting[resp.ID]
		delete(t.waiting, resp.ID)
		t.mu.Unlock()
		if st != nil {
			st.finish(resp)
		}
		return nil // a response whose client left is dropped
	}
	t.mu.Lock()
	st, closed := t.standalone, t.closed
	t.mu.Unlock()
	if closed {
		return jsonrpc2.ErrClosed
	}
	var err error = errNoClientStream
	if st != nil {
		err = st.send(msg)
	}
	if req, ok := msg.(*jsonrpc2.Request); ok && req.IsNotification() && err != nil {
		return nil // notifications nobody can receive are dropped
	}
	if err != nil && !errors.Is(err, errNoClientStream) {
		return errors.Join(errNoClientStream, err)
	}
	return err
}

func (c streamableTransportConn) Close() error {
	c.t.close()
	return nil
}

// receive returns the next message an HTTP server transport received for
// its session (POSTed by the client), or ErrClosed once done is closed.
// The SSE and streamable server transports both read this way.
func receive(ctx context.Context, incoming <-chan jsonrpc2.Message, done <-chan struct{}) (jsonrpc2.Message, error) {
	select {
	case msg := <-incoming:
		return msg, nil
	case <-done:
		return nil, jsonrpc2.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
