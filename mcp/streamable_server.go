package mcp

import (
	"errors"
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
	// DefaultWriteTimeout bounds one write to an SSE stream.
	DefaultWriteTimeout = 30 * time.Second
	// closeGrace is how long Close lets requests in progress finish.
	closeGrace = 5 * time.Second
)

// StreamableHTTPOptions configure a StreamableHTTPHandler. A nil
// *StreamableHTTPOptions means defaults, which are safe: only localhost
// hosts, same-origin or no Origin, 4 MiB bodies, sessions that expire.
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
	// SessionTimeout closes a legacy session idle for that long (default
	// DefaultSessionTimeout); a negative value keeps sessions until the
	// client deletes them.
	SessionTimeout time.Duration
	// MaxBodyBytes bounds a request body; larger ones get 413 (default
	// DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// WriteTimeout bounds each write to an SSE stream, so a client that
	// stops reading cannot hold a handler forever (default
	// DefaultWriteTimeout; negative means none).
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
// middleware around the handler; handlers reach the HTTP request with
// HTTPRequestFromContext.
type StreamableHTTPHandler struct {
	getServer func(*http.Request) *Server
	opts      StreamableHTTPOptions
	policy    *originPolicy

	closing atomic.Bool
	active  atomic.Int64 // requests and detached handlers in progress

	mu       sync.RWMutex
	sessions map[string]*httpSession
	streams  map[*responseStream]struct{} // long-lived modern streams

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
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	h.policy = newOriginPolicy(o.AllowedHosts, o.AllowedOrigins)
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
		h.serveGET(w, r)
	case http.MethodDelete:
		h.serveDELETE(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, CodeInvalidRequest, "method "+r.Method+" not allowed")
	}
}

// servePOST decodes a POST and routes it to the modern or legacy era.
func (h *StreamableHTTPHandler) servePOST(w http.ResponseWriter, r *http.Request) {
	if !isJSONContentType(r.Header.Get("Content-Type")) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	accept := parseAccept(r.Header["Accept"])
	if !accept.json || !accept.sse {
		writeHTTPError(w, http.StatusNotAcceptable, CodeInvalidRequest, "Accept must list application/json and text/event-stream")
		return
	}
	msg, ok := h.readMessage(w, r)
	if !ok {
		return
	}
	sid := r.Header.Get(headerSessionID)
	pv := r.Header.Get(headerProtocolVersion)
	var s *Server
	if req, ok := msg.(*jsonrpc2.Request); ok && isModernVersion(pv) {
		// Routed by its header: the request metadata is checked on the
		// params the method decodes (serveModern), not probed first.
		if s = h.server(w, r); s == nil {
			return
		}
		if s.servesModern() {
			h.serveModern(w, r, s, req, nil, nil, accept)
			return
		}
	} else if ok && sid == "" {
		var p modernProbe
		perr := decodeProbe(req.Params, &p)
		if perr == nil && p.version != "" {
			if s = h.server(w, r); s == nil {
				return
			}
			if s.servesModern() {
				h.serveModern(w, r, s, req, &p, perr, accept)
				return
			}
		}
	}
	h.serveLegacyPOST(w, r, s, msg, sid, pv, accept)
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
		writeJSONResponse(w, status, resp)
		return nil, false
	}
	return msg, true
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

func (h *StreamableHTTPHandler) addSession(sess *httpSession) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing.Load() {
		return false
	}
	h.sessions[sess.id] = sess
	return true
}

func (h *StreamableHTTPHandler) removeSession(sess *httpSession) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions[sess.id] == sess {
		delete(h.sessions, sess.id)
	}
}

// track registers a long-lived modern stream, cancelled by Close.
func (h *StreamableHTTPHandler) track(st *responseStream) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams == nil {
		h.streams = map[*responseStream]struct{}{}
	}
	h.streams[st] = struct{}{}
	return true
}

func (h *StreamableHTTPHandler) untrack(st *responseStream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.streams, st)
}

// maxInFlight is the bound on requests of one session handled at once.
func (h *StreamableHTTPHandler) maxInFlight(s *Server) int {
	if n := s.opts.MaxInFlight; n > 0 {
		return n
	}
	return jsonrpc2.DefaultMaxInFlight
}

// Close shuts the handler down gracefully: new requests get 503,
// long-lived streams (GET streams, subscriptions) end, requests in
// progress get a few seconds to finish, then every session is closed,
// cancelling what is left. It returns once nothing of the handler runs,
// or after a bounded wait.
func (h *StreamableHTTPHandler) Close() error {
	h.closing.Store(true)
	h.mu.Lock()
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		sessions = append(sessions, sess)
	}
	streams := make([]*responseStream, 0, len(h.streams))
	for st := range h.streams {
		streams = append(streams, st)
	}
	h.mu.Unlock()
	for _, st := range streams {
		st.cancel()
	}
	for _, sess := range sessions {
		sess.endStandalone()
	}
	drained := h.waitIdle(closeGrace)
	for _, sess := range sessions {
		sess.Close()
	}
	if !drained && !h.waitIdle(time.Second) {
		return errors.New("mcp: StreamableHTTPHandler.Close: handlers still running after cancellation")
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
