package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Defaults of StreamableHTTPOptions.
const (
	// DefaultSessionTimeout is how long an idle legacy session lives.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultRetryInterval is the reconnection delay sent to clients when
	// the server closes a resumable stream.
	DefaultRetryInterval = time.Second
	// DefaultWriteTimeout bounds one write of a response: a JSON response,
	// or one event of an SSE stream.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultMaxSessions bounds the legacy sessions a handler keeps at
	// once: 10,000 idle sessions cost about 23 MB.
	DefaultMaxSessions = 10_000
	// DefaultMaxListenStreams bounds the subscriptions/listen streams a
	// handler keeps open at once; each holds a connection and a goroutine.
	DefaultMaxListenStreams = 1_000
	// closeWait bounds how long Close and Shutdown wait for handlers to
	// return once they were told to stop.
	closeWait = time.Second
	// retryAfter is the Retry-After of a request refused at capacity, in
	// seconds.
	retryAfter = "5"
)

// StreamableHTTPOptions configure a StreamableHTTPHandler. A nil
// *StreamableHTTPOptions means defaults, which are safe: only localhost
// hosts, same-origin or no Origin, 4 MiB bodies, sessions that expire and
// are bounded in number, and writes that time out.
type StreamableHTTPOptions struct {
	// Stateless serves the legacy era (2025-03-26 to 2025-11-25) without
	// sessions: no Mcp-Session-Id is issued or needed, every request is
	// served on its own as if initialize had happened, GET and DELETE get
	// 405, and server-to-client requests (sampling, roots, elicitation,
	// ping) fail with an error. Protocol 2026-07-28 is always stateless.
	Stateless bool
	// JSONResponse answers every legacy request with a single JSON object,
	// never an SSE stream. Messages related to the request then go to the
	// session's GET stream, if the client opened one.
	JSONResponse bool
	// EventStore, if set, makes the SSE streams of legacy sessions
	// resumable: events carry ids, a client that lost a stream resumes it
	// with Last-Event-ID, and handlers may close the connection of a
	// stream with CloseSSEStream (SSE polling).
	EventStore EventStore
	// RetryInterval is the reconnection delay sent to clients when the
	// server closes a resumable stream (default DefaultRetryInterval).
	RetryInterval time.Duration
	// StreamStartDelay is how long a legacy request may run, when
	// EventStore is set, before its response becomes a resumable SSE
	// stream (a priming event that gives the client an id to resume from,
	// then stored events). The stream starts sooner when the handler
	// sends the client a message related to the request, or calls
	// CloseSSEStream; a response ready before all of these is one JSON
	// object, and nothing is stored for it. Default
	// DefaultStreamStartDelay; negative starts every stream at once.
	StreamStartDelay time.Duration
	// SessionTimeout closes a legacy session idle for that long (default
	// DefaultSessionTimeout); a negative value keeps sessions until the
	// client deletes them.
	SessionTimeout time.Duration
	// MaxSessions bounds the legacy sessions kept at once (default
	// DefaultMaxSessions; negative means no bound). When the handler is
	// full, an initialize first closes the sessions idle for longer than
	// SessionTimeout; if none is, it is refused with 503 and Retry-After.
	MaxSessions int
	// MaxListenStreams bounds the subscriptions/listen streams (protocol
	// 2026-07-28) open at once (default DefaultMaxListenStreams; negative
	// means no bound); more are refused with 503 and Retry-After.
	MaxListenStreams int
	// MaxBodyBytes bounds a request body; larger ones get 413 (default
	// DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// WriteTimeout bounds each write of a response: a JSON response as a
	// whole, and each event of an SSE stream. A client that stops reading
	// for that long is dropped (its connection closed), so it holds
	// neither a handler nor buffers (default DefaultWriteTimeout; negative
	// means none). It replaces http.Server.WriteTimeout, which would cut
	// long-lived streams: leave that one zero.
	WriteTimeout time.Duration
	// AllowedHosts lists the host names (port ignored) accepted in the Host
	// header, to defeat DNS rebinding. Empty means localhost, 127.0.0.1
	// and ::1 only; "*" accepts any host. Set it when serving other names.
	AllowedHosts []string
	// AllowedOrigins lists origins ("https://app.example.com") accepted in
	// the Origin header besides the request's own host; a request with
	// another Origin gets 403. "*" accepts any origin. A browser page on
	// another origin (a web client, an inspector served on another port)
	// also needs CORS headers, which the handler does not write: wrap it in
	// CORS middleware that answers preflight requests, allows the
	// Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name and
	// Mcp-Param-* request headers, and exposes Mcp-Session-Id.
	AllowedOrigins []string
	// SessionStore, if set, keeps the state of legacy sessions where every
	// instance of the server behind a load balancer finds it, so that any
	// instance serves any session (see [SessionStore]). Share EventStore,
	// SessionRouter and ServerOptions.EventBus with it.
	SessionStore SessionStore
	// SessionRouter, if set with SessionStore, carries server-to-client
	// requests, the client's answers and cancellations between the
	// instances serving one legacy session (see [SessionRouter]).
	SessionRouter SessionRouter
	// DisableStreamHijack keeps the long-lived event streams (a legacy
	// session's GET stream, a subscriptions/listen stream) on net/http.
	// By default, over HTTP/1.1, such a stream takes its connection from
	// net/http once its response starts (http.ResponseController.Hijack)
	// and the handler writes its events itself, so that an idle stream
	// costs a few hundred bytes instead of net/http's buffers, request and
	// response, and a notification is written to many streams without
	// waking a goroutine per stream. Set it when middleware must see the
	// stream's bytes, or a listener counts hijacked connections as lost.
	// Streams over HTTP/2, HTTP/1.0, or through a ResponseWriter that
	// cannot hijack always stay on net/http.
	DisableStreamHijack bool
	// Logger receives what the handler cannot return to anyone: clients
	// dropped because writing to them failed, notifications no stream
	// could carry, sessions that expired or were refused at capacity
	// (default slog.Default()).
	Logger *slog.Logger
	// Authorize, if set, decides on each POST once its body is decoded
	// (the JSON-RPC method, and the tool, prompt or resource it acts on)
	// and before anything in it is served, in every protocol era; see
	// AuthorizeFunc. HTTP middleware in front of the handler, which sees
	// only headers, adds its own with WithAuthorize (the auth module's
	// per-tool scopes do). Requests are decoded once for both.
	Authorize AuthorizeFunc
}

// A StreamableHTTPHandler is an http.Handler that serves MCP over the
// streamable HTTP transport, in every protocol era at once:
//
//   - 2026-07-28: each POST is one request served on its own, without
//     session, connection or goroutine; the response is one JSON object,
//     or an SSE stream when the server sends notifications before it.
//   - 2025-03-26 to 2025-11-25: initialize creates a session identified by
//     the Mcp-Session-Id header; POSTs carry the client's messages, a GET
//     stream carries the server's unrelated ones, DELETE ends the session.
//
// The era is decided per request. Authentication is ordinary HTTP
// middleware around the handler; what depends on the JSON-RPC method or
// the tool it calls is decided by an AuthorizeFunc (Authorize,
// WithAuthorize), which the handler runs once it has decoded the body.
// Handlers reach the HTTP request with HTTPRequestFromContext.
//
// Serve it with an http.Server that sets ReadHeaderTimeout and
// IdleTimeout and leaves WriteTimeout zero: the handler bounds its own
// writes (StreamableHTTPOptions.WriteTimeout). Before shutting the server
// down, call Shutdown, which lets calls in progress finish and ends the
// long-lived streams that http.Server.Shutdown would wait for.
type StreamableHTTPHandler struct {
	getServer func(*http.Request) *Server
	opts      StreamableHTTPOptions
	policy    *originPolicy
	cfg       streamConfig // shared by the handler's response streams
	live      liveStreams  // subscriptions/listen streams
	workers   workerPool   // streamable_workers.go: run the handlers of resumable requests
	conns     hijackedConns

	closing   atomic.Bool
	active    atomic.Int64 // requests and detached handlers in progress
	streaming atomic.Int64 // of which: GET and subscriptions/listen streams
	listens   atomic.Int64 // subscriptions/listen requests admitted

	mu       sync.RWMutex
	sessions map[string]*httpSession

	instanceOnce sync.Once // session_router.go
	instance     string

	bindingCache sync.Map // *ServerTool -> []headerBinding
	bindingCount atomic.Int64
}

// NewStreamableHTTPHandler returns a handler that serves the Server
// getServer returns for each new session (legacy) or request (2026-07-28).
// getServer may return the same Server every time; returning nil answers
// 400.
func NewStreamableHTTPHandler(getServer func(*http.Request) *Server, opts *StreamableHTTPOptions) *StreamableHTTPHandler {
	h := &StreamableHTTPHandler{getServer: getServer, sessions: map[string]*httpSession{}}
	if opts != nil {
		h.opts = *opts
	}
	o := &h.opts
	if o.RetryInterval <= 0 {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.StreamStartDelay == 0 {
		o.StreamStartDelay = DefaultStreamStartDelay
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxListenStreams == 0 {
		o.MaxListenStreams = DefaultMaxListenStreams
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	h.policy = newOriginPolicy(o.AllowedHosts, o.AllowedOrigins)
	h.cfg = streamConfig{
		writeTimeout:  o.WriteTimeout,
		retryInterval: o.RetryInterval,
		store:         o.EventStore,
		logger:        o.Logger,
		live:          &h.live,
		conns:         &h.conns,
	}
	return h
}

// ServeHTTP serves one HTTP request to the MCP endpoint.
func (h *StreamableHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.policy.checkRequest(w, r) {
		return
	}
	h.active.Add(1)
	defer h.active.Add(-1)
	if h.closing.Load() {
		writeHTTPError(w, http.StatusServiceUnavailable, CodeInternalError, "server is shutting down")
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.servePOST(w, r)
	case http.MethodGet:
		h.streaming.Add(1)
		defer h.streaming.Add(-1)
		h.serveGET(w, r)
	case http.MethodDelete:
		h.serveDELETE(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed")
	}
}

// StreamableHTTPStats is a snapshot of what a StreamableHTTPHandler holds,
// for operators' gauges.
type StreamableHTTPStats struct {
	// Sessions is the number of live legacy sessions.
	Sessions int
	// ListenStreams is the number of open subscriptions/listen streams.
	ListenStreams int
	// Requests is the number of HTTP requests being served, streams
	// included, plus handlers still running for clients that left.
	Requests int
}

// Stats returns the handler's current numbers of sessions, listen streams
// and requests.
func (h *StreamableHTTPHandler) Stats() StreamableHTTPStats {
	h.mu.RLock()
	n := len(h.sessions)
	h.mu.RUnlock()
	return StreamableHTTPStats{Sessions: n, ListenStreams: int(h.listens.Load()), Requests: int(h.active.Load())}
}

// server returns the Server for a request, answering 400 when there is
// none.
func (h *StreamableHTTPHandler) server(w http.ResponseWriter, r *http.Request) *Server {
	s := h.getServer(r)
	if s == nil {
		writeHTTPError(w, http.StatusBadRequest, CodeInvalidRequest, "no MCP server for this request")
	}
	return s
}

// session returns the live session id, or nil.
func (h *StreamableHTTPHandler) session(id string) *httpSession {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.sessions[id]
}

// Reasons a new session is refused.
var (
	errShuttingDown    = errors.New("server is shutting down")
	errTooManySessions = errors.New("too many sessions: try again later")
)

// addSession registers a new session, sweeping expired ones when the
// handler is full.
func (h *StreamableHTTPHandler) addSession(sess *httpSession) error {
	err := h.tryAddSession(sess)
	if errors.Is(err, errTooManySessions) && h.sweep() > 0 {
		err = h.tryAddSession(sess)
	}
	if errors.Is(err, errTooManySessions) {
		h.opts.Logger.Warn("mcp: refused a new session: the handler holds MaxSessions", "max", h.opts.MaxSessions)
	}
	return err
}

func (h *StreamableHTTPHandler) tryAddSession(sess *httpSession) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closing.Load():
		return errShuttingDown
	case h.opts.MaxSessions > 0 && len(h.sessions) >= h.opts.MaxSessions:
		return errTooManySessions
	}
	h.sessions[sess.id] = sess
	return nil
}

// sweep closes the sessions idle for longer than the session timeout
// whose timers have not fired yet, and returns how many it closed.
func (h *StreamableHTTPHandler) sweep() int {
	timeout := h.opts.SessionTimeout
	if timeout <= 0 {
		return 0
	}
	h.mu.RLock()
	var expired []*httpSession
	for _, sess := range h.sessions {
		if sess.expired(timeout) {
			expired = append(expired, sess)
		}
	}
	h.mu.RUnlock()
	for _, sess := range expired {
		sess.expire()
	}
	return len(expired)
}

func (h *StreamableHTTPHandler) removeSession(sess *httpSession) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions[sess.id] == sess {
		delete(h.sessions, sess.id)
	}
}

// admitListen counts a subscriptions/listen request in, reporting false
// when MaxListenStreams are open already; the caller calls endListen.
func (h *StreamableHTTPHandler) admitListen() bool {
	n := h.listens.Add(1)
	if max := h.opts.MaxListenStreams; max > 0 && n > int64(max) {
		h.listens.Add(-1)
		h.opts.Logger.Warn("mcp: refused a subscriptions/listen stream: the handler holds MaxListenStreams", "max", max)
		return false
	}
	h.streaming.Add(1)
	return true
}

func (h *StreamableHTTPHandler) endListen() {
	h.streaming.Add(-1)
	h.listens.Add(-1)
}

// maxInFlight is the bound on requests of one session handled at once.
func (h *StreamableHTTPHandler) maxInFlight(s *Server) int {
	if n := s.opts.MaxInFlight; n > 0 {
		return n
	}
	return jsonrpc2.DefaultMaxInFlight
}

// Shutdown shuts the handler down gracefully: new requests get 503, calls
// in progress may finish until ctx is done, then the long-lived streams
// (GET streams, subscriptions/listen) end and every session is closed,
// cancelling what is left. A subscriptions/listen stream ends with its
// request's successful response, which tells the client that the server
// ended it. It returns ctx's error if calls were still in
// progress when ctx ended. Call it before http.Server.Shutdown, which
// would otherwise wait for the streams.
func (h *StreamableHTTPHandler) Shutdown(ctx context.Context) error {
	h.closing.Store(true)
	err := h.waitCalls(ctx)
	if cerr := h.end(); err == nil {
		err = cerr
	}
	return err
}

// Close shuts the handler down at once: new requests get 503, streams end
// (subscriptions/listen streams with their successful response), every
// session is closed and the calls of legacy sessions are cancelled.
// It waits briefly for handlers to return, and reports those that did
// not. Shutdown is the graceful form.
func (h *StreamableHTTPHandler) Close() error {
	h.closing.Store(true)
	return h.end()
}

// end ends every stream and session and waits briefly for handlers.
func (h *StreamableHTTPHandler) end() error {
	h.mu.Lock()
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		sessions = append(sessions, sess)
	}
	h.mu.Unlock()
	h.live.cancelAll()
	for _, sess := range sessions {
		sess.endStandalone()
		sess.Close()
	}
	h.workers.stop()
	// Hijacked streams end as their clients take their last events; those
	// of clients too slow for that are closed after a short wait.
	h.waitIdle(closeWait / 10)
	h.conns.closeAll()
	if !h.waitIdle(closeWait) {
		return errors.New("mcp: StreamableHTTPHandler: handlers still running after cancellation")
	}
	return nil
}

// waitCalls waits until no call is in progress (streams aside), or ctx is
// done.
func (h *StreamableHTTPHandler) waitCalls(ctx context.Context) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for h.active.Load()-h.streaming.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// waitIdle waits up to d for the requests in progress to end.
func (h *StreamableHTTPHandler) waitIdle(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for h.active.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// refuseAtCapacity answers 503 with Retry-After and a JSON-RPC error.
func refuseAtCapacity(w http.ResponseWriter, id jsonrpc2.ID, msg string) {
	w.Header().Set("Retry-After", retryAfter)
	// A failed write means the client is gone: there is no one to tell.
	_ = writeJSONResponse(w, http.StatusServiceUnavailable, &jsonrpc2.Response{ID: id, Error: &jsonrpc2.Error{Code: CodeInternalError, Message: msg}})
}
