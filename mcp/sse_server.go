package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
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
	// WriteTimeout bounds each write to a stream: a client that stops
	// reading for that long is dropped, ending its session (default
	// DefaultWriteTimeout; negative means none).
	WriteTimeout time.Duration
	// MaxSessions bounds the sessions (open GET streams) served at once
	// (default DefaultMaxSessions; negative means no bound); more GETs
	// are refused with 503 and Retry-After.
	MaxSessions int
	// AllowedHosts and AllowedOrigins work as in StreamableHTTPOptions.
	AllowedHosts   []string
	AllowedOrigins []string
	// Logger receives what the handler cannot return to anyone: clients
	// dropped because writing to them failed, sessions refused at
	// capacity or that failed to start (default slog.Default()).
	Logger *slog.Logger
	// Authorize, if set, decides on each POST once its body is decoded,
	// before anything in it is served; see AuthorizeFunc. Middleware in
	// front of the handler adds its own with WithAuthorize.
	Authorize AuthorizeFunc
}

// An SSEHTTPHandler is an http.Handler serving the HTTP+SSE transport of
// protocol 2024-11-05: a GET opens a session, whose messages endpoint is
// the handler's own URL with a ?sessionId= query, and POSTs to it carry the
// client's messages.
//
// Serve it with an http.Server that sets ReadHeaderTimeout and
// IdleTimeout and leaves WriteTimeout zero (the handler bounds its own
// writes), and call Shutdown before shutting that server down.
type SSEHTTPHandler struct {
	getServer func(*http.Request) *Server
	opts      SSEOptions
	policy    *originPolicy

	mu       sync.Mutex
	sessions map[string]*SSEServerTransport
	closed   bool
	done     chan struct{}
	streams  sync.WaitGroup // sessions being served
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
	if h.opts.MaxSessions == 0 {
		h.opts.MaxSessions = DefaultMaxSessions
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
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
		t, closed := h.sessions[id], h.closed
		h.mu.Unlock()
		if t == nil || t.owner != SessionOwnerFromContext(r.Context()) { // session_owner.go
			writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session not found")
			return
		}
		t.serve(w, r, closed)
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
	t.maxBody, t.writeTimeout, t.logger = h.opts.MaxBodyBytes, h.opts.WriteTimeout, h.opts.Logger
	t.authorizeFn = h.opts.Authorize
	t.owner = SessionOwnerFromContext(r.Context())
	h.mu.Lock()
	switch {
	case h.closed:
		h.mu.Unlock()
		writeHTTPError(w, http.StatusServiceUnavailable, CodeInternalError, "server is shutting down")
		return
	case h.opts.MaxSessions > 0 && len(h.sessions) >= h.opts.MaxSessions:
		h.mu.Unlock()
		h.opts.Logger.Warn("mcp: refused a new SSE session: the handler holds MaxSessions", "max", h.opts.MaxSessions)
		refuseAtCapacity(w, jsonrpc2.ID{}, errTooManySessions.Error())
		return
	}
	h.sessions[id] = t
	h.streams.Add(1)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
		h.streams.Done()
	}()
	ss, err := server.Connect(r.Context(), t)
	if err != nil {
		h.opts.Logger.Info("mcp: an SSE session failed to start", "error", err)
		return
	}
	select {
	case <-t.done:
	case <-r.Context().Done():
	case <-h.done:
	}
	// Closing the session ends its connection; the error is the
	// connection's reason to end, which is the stream's end here.
	if err := ss.Close(); err != nil {
		h.opts.Logger.Debug("mcp: SSE session ended", "error", err)
	}
	t.close()
}

// SSEStats is a snapshot of what an SSEHTTPHandler holds, for operators'
// gauges.
type SSEStats struct {
	// Sessions is the number of open sessions (GET streams).
	Sessions int
	// Calls is the number of requests being handled.
	Calls int
}

// Stats returns the handler's current numbers of sessions and calls.
func (h *SSEHTTPHandler) Stats() SSEStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := SSEStats{Sessions: len(h.sessions)}
	for _, t := range h.sessions {
		st.Calls += int(t.pending.Load())
	}
	return st
}

// Shutdown shuts the handler down gracefully: new sessions and new
// requests get 503, calls in progress may finish until ctx is done, then
// every session ends. It returns ctx's error if calls were still in
// progress when ctx ended. Call it before http.Server.Shutdown, which
// would otherwise wait for the streams.
func (h *SSEHTTPHandler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var err error
	for err == nil && h.Stats().Calls > 0 {
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-tick.C:
		}
	}
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close ends every session at once and refuses new ones. It waits briefly
// for the sessions to end, and reports those that did not.
func (h *SSEHTTPHandler) Close() error {
	h.mu.Lock()
	h.closed = true
	select {
	case <-h.done:
	default:
		close(h.done)
	}
	h.mu.Unlock()
	ended := make(chan struct{})
	go func() {
		h.streams.Wait()
		close(ended)
	}()
	select {
	case <-ended:
		return nil
	case <-time.After(closeWait):
		return errors.New("mcp: SSEHTTPHandler: sessions still running after Close")
	}
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
	owner        string // WithSessionOwner of the GET that opened the session
	w            http.ResponseWriter
	rc           *http.ResponseController
	maxBody      int64
	writeTimeout time.Duration
	logger       *slog.Logger
	authorizeFn  AuthorizeFunc // SSEOptions.Authorize
	incoming     chan jsonrpc2.Message
	done         chan struct{}
	once         connectOnce
	pending      atomic.Int64 // requests received and not yet answered

	mu     sync.Mutex
	closed bool
	buf    []byte
}

var _ http.Handler = (*SSEServerTransport)(nil)

// NewSSEServerTransport returns the transport of the session whose stream
// is the response w, announcing endpoint as the URL for the client's POSTs.
func NewSSEServerTransport(endpoint string, w http.ResponseWriter) *SSEServerTransport {
	return &SSEServerTransport{
		endpoint:     endpoint,
		w:            w,
		rc:           http.NewResponseController(w),
		maxBody:      DefaultMaxBodyBytes,
		writeTimeout: DefaultWriteTimeout,
		logger:       slog.Default(),
		incoming:     make(chan jsonrpc2.Message, 16),
		done:         make(chan struct{}),
	}
}

// ServeHTTP accepts a message POSTed by the client, answering 202.
func (t *SSEServerTransport) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t.serve(w, r, false)
}

// serve accepts a POSTed message; when closing, new requests get 503.
func (t *SSEServerTransport) serve(w http.ResponseWriter, r *http.Request, closing bool) {
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
	if !authorize(w, r, t.authorizeFn, msg) { // http_authorize.go
		return
	}
	req, isCall := msg.(*jsonrpc2.Request)
	isCall = isCall && !req.IsNotification()
	if isCall && closing {
		writeHTTPError(w, http.StatusServiceUnavailable, CodeInternalError, "server is shutting down")
		return
	}
	if isCall {
		t.pending.Add(1)
	}
	select {
	case t.incoming <- msg:
		w.WriteHeader(http.StatusAccepted)
		return
	case <-t.done:
		writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "session closed")
	case <-r.Context().Done():
	}
	if isCall {
		t.pending.Add(-1)
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

// writeLocked writes and flushes b within the write timeout, set anew for
// each event. A client that does not read for that long is dropped.
func (t *SSEServerTransport) writeLocked(b []byte) error {
	if err := setWriteDeadline(t.w, t.writeTimeout); err != nil {
		t.logger.Debug("mcp: cannot set a write deadline on an SSE stream", "error", err)
	}
	_, err := t.w.Write(b)
	if err == nil {
		err = t.rc.Flush()
		if errors.Is(err, http.ErrNotSupported) {
			err = nil
		}
	}
	if err != nil {
		level := slog.LevelDebug
		if errors.Is(err, os.ErrDeadlineExceeded) {
			level = slog.LevelInfo // a client that stopped reading
		}
		t.logger.Log(context.Background(), level, "mcp: dropping an SSE client: writing its stream failed", "error", err)
	}
	return err
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
	if _, ok := msg.(*jsonrpc2.Response); ok {
		t.pending.Add(-1) // the call is answered, or its answer lost
	}
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
