package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The HTTP+SSE transport of protocol 2024-11-05 (deprecated since
// 2025-03-26, kept for old clients): the client opens an SSE stream with
// GET; the server's first event, "endpoint", names the URL to which the
// client POSTs its messages; the server answers each POST with 202 and
// sends every message of its own, responses included, as a "message" event
// on the stream.

// SSEOptions configure an SSEHTTPHandler. A nil *SSEOptions means
// defaults, with the same safety defaults as StreamableHTTPOptions.
type SSEOptions struct {
	// MaxBodyBytes bounds a POST body (default DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// WriteTimeout bounds each write to a stream (default
	// DefaultWriteTimeout; negative means none).
	WriteTimeout time.Duration
	// AllowedHosts and AllowedOrigins work as in StreamableHTTPOptions.
	AllowedHosts   []string
	AllowedOrigins []string
}

// An SSEHTTPHandler is an http.Handler serving the HTTP+SSE transport of
// protocol 2024-11-05: a GET opens a session, whose messages endpoint is
// the handler's own URL with a ?sessionId= query, and POSTs to it carry the
// client's messages.
type SSEHTTPHandler struct {
	getServer func(*http.Request) *Server
	opts      SSEOptions
	policy    *originPolicy

	mu       sync.Mutex
	sessions map[string]*SSEServerTransport
	closed   bool
	done     chan struct{}
}

// NewSSEHTTPHandler returns a handler that connects each new client to the
// Server getServer returns for its GET request.
func NewSSEHTTPHandler(getServer func(*http.Request) *Server, opts *SSEOptions) *SSEHTTPHandler {
	h := &SSEHTTPHandler{getServer: getServer, sessions: map[string]*SSEServerTransport{}, done: make(chan struct{})}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if h.opts.WriteTimeout == 0 {
		h.opts.WriteTimeout = DefaultWriteTimeout
	}
	h.policy = newOriginPolicy(h.opts.AllowedHosts, h.opts.AllowedOrigins)
	return h
}

// ServeHTTP serves a GET that opens a session or a POST to one.
func (h *SSEHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.policy.checkRequest(w, r) {
		return
	}
	switch r.Method {
	case http.MethodGet:
		h.serveStream(w, r)
	case http.MethodPost:
		id := r.URL.Query().Get("sessionId")
		h.mu.Lock()
		t := h.sessions[id]
		h.mu.Unlock()
		if t == nil {
			writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session not found")
			return
		}
		t.ServeHTTP(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed")
	}
}

// serveStream runs one session for the duration of its GET.
func (h *SSEHTTPHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	if a := r.Header["Accept"]; len(a) > 0 && !parseAccept(a).sse {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list text/event-stream")
		return
	}
	server := h.getServer(r)
	if server == nil {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "no MCP server for this request")
		return
	}
	id := newSessionID()
	endpoint := (&url.URL{Path: r.URL.Path, RawQuery: url.Values{"sessionId": {id}}.Encode()}).String()
	t := NewSSEServerTransport(endpoint, w)
	t.maxBody, t.writeTimeout = h.opts.MaxBodyBytes, h.opts.WriteTimeout
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		writeHTTPError(w, http.StatusServiceUnavailable, CodeInternalError, "server is shutting down")
		return
	}
	h.sessions[id] = t
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
	}()
	ss, err := server.Connect(r.Context(), t)
	if err != nil {
		return
	}
	select {
	case <-t.done:
	case <-r.Context().Done():
	case <-h.done:
	}
	_ = ss.Close()
	t.close()
}

// Close ends every session and refuses new ones.
func (h *SSEHTTPHandler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
	return nil
}

// An SSEServerTransport is the server side of one HTTP+SSE session
// (2024-11-05), for servers that route requests themselves; most use
// SSEHTTPHandler. Create it in the handler of the client's GET with the
// messages endpoint URL and the GET's ResponseWriter; serve the POSTs to
// the endpoint with its ServeHTTP; connect a Server to it with
// Server.Connect, which sends the endpoint event. The GET handler must
// not return before the session ends (ServerSession.Wait).
type SSEServerTransport struct {
	endpoint     string
	w            http.ResponseWriter
	rc           *http.ResponseController
	maxBody      int64
	writeTimeout time.Duration
	incoming     chan jsonrpc2.Message
	done         chan struct{}
	once         connectOnce

	mu     sync.Mutex
	closed bool
	buf    []byte
}

// NewSSEServerTransport returns the transport of the session whose stream
// is the response w, announcing endpoint as the URL for the client's POSTs.
func NewSSEServerTransport(endpoint string, w http.ResponseWriter) *SSEServerTransport {
	return &SSEServerTransport{
		endpoint:     endpoint,
		w:            w,
		rc:           http.NewResponseController(w),
		maxBody:      DefaultMaxBodyBytes,
		writeTimeout: DefaultWriteTimeout,
		incoming:     make(chan jsonrpc2.Message, 16),
		done:         make(chan struct{}),
	}
}

// ServeHTTP accepts a message POSTed by the client, answering 202.
func (t *SSEServerTransport) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed")
		return
	}
	if !isJSONContentType(r.Header.Get("Content-Type")) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	bp, err := readBody(r, t.maxBody)
	if errors.Is(err, errBodyTooLarge) {
		writeHTTPError(w, http.StatusRequestEntityTooLarge, CodeInvalidRequest, "request body larger than the limit")
		return
	}
	if err != nil {
		writeHTTPError(w, http.StatusBadRequest, CodeParseError, "reading request body: "+err.Error())
		return
	}
	msg, err := jsonrpc2.Decode(*bp)
	putBody(bp)
	if err != nil {
		writeHTTPErrorResponse(w, http.StatusBadRequest, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, err))
		return
	}
	select {
	case t.incoming <- msg:
		w.WriteHeader(http.StatusAccepted)
	case <-t.done:
		writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session closed")
	case <-r.Context().Done():
	}
}

// Connect starts the stream: it writes the SSE headers and the endpoint
// event, and returns the session's connection. It may be called once.
func (t *SSEServerTransport) Connect(context.Context) (Connection, error) {
	if err := t.once.claim(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.w.Header()
	h["Content-Type"] = hdrSSE
	h["Cache-Control"] = hdrNoCache
	h["X-Accel-Buffering"] = hdrNoBuffer
	t.w.WriteHeader(http.StatusOK)
	t.buf = appendSSEEvent(t.buf[:0], "endpoint", "", []byte(t.endpoint))
	if err := t.writeLocked(t.buf); err != nil {
		return nil, err
	}
	return sseServerConn{t}, nil
}

// writeLocked writes and flushes b within the write timeout.
func (t *SSEServerTransport) writeLocked(b []byte) error {
	if t.writeTimeout > 0 {
		_ = t.rc.SetWriteDeadline(time.Now().Add(t.writeTimeout))
	}
	if _, err := t.w.Write(b); err != nil {
		return err
	}
	if err := t.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// close ends the session; the stream is not written to afterwards.
func (t *SSEServerTransport) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		close(t.done)
	}
}

// sseServerConn is the Connection of an SSEServerTransport.
type sseServerConn struct{ t *SSEServerTransport }

func (c sseServerConn) Read(ctx context.Context) (jsonrpc2.Message, error) {
	return receive(ctx, c.t.incoming, c.t.done)
}

func (c sseServerConn) Write(_ context.Context, msg jsonrpc2.Message) error {
	t := c.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return jsonrpc2.ErrClosed
	}
	data, err := jsonrpc2.Encode(msg)
	if err != nil {
		return err
	}
	t.buf = appendSSEEvent(t.buf[:0], "message", "", data)
	if err := t.writeLocked(t.buf); err != nil {
		t.closed = true
		close(t.done)
		return err
	}
	return nil
}

func (c sseServerConn) Close() error {
	c.t.close()
	return nil
}
