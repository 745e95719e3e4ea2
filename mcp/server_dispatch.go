package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// A methodInfo describes one method a side handles: how to make its params
// and how to serve it.
type methodInfo[S ClientSession | ServerSession] struct {
	newParams    func() any
	handle       func(ctx context.Context, session *S, params any) (any, error)
	notification bool
	legacyOnly   bool // not part of 2026-07-28
	modernOnly   bool // only in 2026-07-28
	anyTime      bool // allowed before the era is settled (ping)
}

// requestMethod builds the methodInfo of a request with typed params and
// result.
func requestMethod[S ClientSession | ServerSession, P, R any](h func(*S, context.Context, *P) (*R, error)) *methodInfo[S] {
	return &methodInfo[S]{
		newParams: func() any { return new(P) },
		handle: func(ctx context.Context, s *S, params any) (any, error) {
			res, err := h(s, ctx, params.(*P))
			if err != nil {
				return nil, err
			}
			if res == nil {
				return nil, errors.New("handler returned no result")
			}
			return res, nil
		},
	}
}

// notificationMethod builds the methodInfo of a notification.
func notificationMethod[S ClientSession | ServerSession, P any](h func(*S, context.Context, *P)) *methodInfo[S] {
	return &methodInfo[S]{
		newParams:    func() any { return new(P) },
		notification: true,
		handle: func(ctx context.Context, s *S, params any) (any, error) {
			h(s, ctx, params.(*P))
			return nil, nil
		},
	}
}

// serverMethods lists every method a server handles. Each feature's file
// registers its methods in an init function.
var serverMethods = map[string]*methodInfo[ServerSession]{}

func init() {
	legacy := func(m *methodInfo[ServerSession]) *methodInfo[ServerSession] { m.legacyOnly = true; return m }
	modern := func(m *methodInfo[ServerSession]) *methodInfo[ServerSession] { m.modernOnly = true; return m }
	anyTime := func(m *methodInfo[ServerSession]) *methodInfo[ServerSession] { m.anyTime = true; return m }
	methods := map[string]*methodInfo[ServerSession]{
		MethodInitialize: legacy(requestMethod((*ServerSession).initialize)),
		MethodPing:       legacy(anyTime(requestMethod((*ServerSession).ping))),
		MethodDiscover:   modern(requestMethod((*ServerSession).discover)),
		MethodListTools:  requestMethod((*ServerSession).listTools),
		MethodCallTool:   callToolMethod(), // may answer with a task (task_server.go)

		NotificationInitialized:      notificationMethod((*ServerSession).initializedNotification),
		NotificationCancelled:        notificationMethod((*ServerSession).cancelledNotification),
		NotificationProgress:         notificationMethod((*ServerSession).progressNotification),
		NotificationRootsListChanged: notificationMethod((*ServerSession).rootsListChangedNotification),
	}
	for name, m := range methods {
		serverMethods[name] = m
	}
	for _, m := range []*methodInfo[ServerSession]{serverMethods[NotificationInitialized], serverMethods[NotificationRootsListChanged]} {
		m.legacyOnly = true
	}
}

// serverMethodHandler is the server's base MethodHandler: it runs the
// method's handler. Middleware wraps it.
func serverMethodHandler(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
	m := serverMethods[method]
	if m == nil {
		return nil, newError(CodeMethodNotFound, "method not found: %s", method)
	}
	return m.handle(ctx, ss, params)
}

// handle is the jsonrpc2 handler of a connection's session. Results with
// a direct encoding are returned encoded.
func (ss *ServerSession) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	return encodeResult(ss.handleRequest(ctx, req))
}

// handleRequest is handle without the encoding of the result, for
// transports that make the response themselves (newResponse).
func (ss *ServerSession) handleRequest(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	m := serverMethods[req.Method]
	if req.IsNotification() {
		if m == nil || !m.notification {
			return nil, nil // unknown notifications are ignored
		}
		params := m.newParams()
		if err := decodeRequestParams(req, params); err != nil {
			return nil, nil
		}
		target := ss
		if meta := requestMeta(params); meta != nil && meta.ProtocolVersion != "" {
			target = ss.requestScoped(meta, nil)
		}
		_, _ = ss.server.methodHandler()(ctx, target, req.Method, params)
		return nil, nil
	}
	if m == nil || m.notification {
		return nil, newError(CodeMethodNotFound, "method not found: %s", req.Method)
	}
	params := m.newParams()
	if err := decodeRequestParams(req, params); err != nil {
		return nil, newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, err)
	}
	target, err := ss.route(req.Method, m, requestMeta(params))
	if err != nil {
		return nil, err
	}
	if target.request != nil {
		target.request.id = req.ID
	}
	return target.serve(ctx, req.Method, params)
}

// serve runs a decoded request through the middleware chain and, in the
// modern era, marks the result complete.
func (ss *ServerSession) serve(ctx context.Context, method string, params any) (any, error) {
	if ss.request != nil {
		if err := ss.beginInput(method, params); err != nil {
			return nil, err
		}
	}
	res, err := ss.server.methodHandler()(ctx, ss, method, params)
	if ss.request != nil && len(ss.request.input.pending) > 0 {
		return ss.inputRequired(method, params)
	}
	if err != nil {
		return nil, err
	}
	if ss.request != nil {
		if r, ok := res.(*CallToolResult); ok && r != nil {
			if r.ResultType == "" {
				r.ResultType = "complete"
			}
		} else {
			setResultType(res, "complete")
		}
	}
	return res, nil
}

// route settles the era of a request and returns the session that serves
// it: the connection's own (legacy) or one scoped to the request (modern).
func (ss *ServerSession) route(method string, m *methodInfo[ServerSession], meta *Meta) (*ServerSession, error) {
	modern := meta != nil && meta.ProtocolVersion != ""
	era := ss.era.Load()
	switch {
	case method == MethodInitialize:
		return ss, nil // initialize settles the era itself
	case era == eraLegacy:
		if m.modernOnly {
			return nil, newError(CodeMethodNotFound, "method %s is not part of protocol %s", method, ss.ProtocolVersion())
		}
		if !ss.initialized.Load() && !m.anyTime {
			return nil, newError(CodeInvalidRequest, "session not initialized: %s sent before initialize completed", method)
		}
		return ss, nil
	case modern && ss.server.servesModern():
		if err := ss.server.checkModernMeta(meta); err != nil {
			return nil, err
		}
		if m.legacyOnly {
			return nil, newError(CodeMethodNotFound, "method %s is not part of protocol %s", method, meta.ProtocolVersion)
		}
		if method != MethodDiscover {
			// server/discover is a probe: a client that finds no common
			// modern version may still initialize on this connection.
			ss.era.CompareAndSwap(eraUndecided, eraModern)
		}
		return ss.requestScoped(meta, nil), nil
	case m.anyTime:
		return ss, nil
	}
	return nil, newError(CodeInvalidParams,
		"missing _meta[%q]: send initialize first (protocol 2025-11-25 and earlier) or include the protocol version, client capabilities and client info in every request's _meta (2026-07-28)",
		"io.modelcontextprotocol/protocolVersion")
}

// checkModernMeta validates the per-request metadata of a 2026-07-28
// request.
func (s *Server) checkModernMeta(meta *Meta) error {
	if !isModernVersion(meta.ProtocolVersion) || !s.supports(meta.ProtocolVersion) {
		return newErrorWithData(CodeUnsupportedProtocolVersion, "Unsupported protocol version",
			&UnsupportedProtocolVersionData{Requested: meta.ProtocolVersion, Supported: s.versions()})
	}
	if meta.ClientCapabilities == nil {
		return newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", "io.modelcontextprotocol/clientCapabilities", meta.ProtocolVersion)
	}
	if err := checkMetaLogLevel(meta.LogLevel); err != nil { // logging.go
		return err
	}
	return nil
}

// servesModern reports whether the server serves any 2026-07-28-era
// version. A server that does not behaves as a legacy server would.
func (s *Server) servesModern() bool {
	return slices.ContainsFunc(s.versions(), isModernVersion)
}

// isModernVersion reports whether version uses per-request metadata rather
// than the initialize handshake.
func isModernVersion(version string) bool {
	return version >= Version20260728 && len(version) == len(Version20260728)
}

// requestScoped returns a session for one modern request on this
// connection.
func (ss *ServerSession) requestScoped(meta *Meta, notify func(context.Context, string, any) error) *ServerSession {
	sc := newScopedSession(ss.server, meta, notify)
	sc.parent = ss.root()
	return sc
}

// newScopedSession makes the session of one modern request, with its
// request state, in one allocation.
func newScopedSession(s *Server, meta *Meta, notify func(context.Context, string, any) error) *ServerSession {
	sc := &struct {
		ss  ServerSession
		req modernRequest
	}{}
	sc.req.meta, sc.req.notify = meta, notify
	sc.ss.server, sc.ss.request = s, &sc.req
	return &sc.ss
}

func decodeResult(raw []byte, result any) error {
	if err := strictjson.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("mcp: decoding result: %w", err)
	}
	return nil
}

func (ss *ServerSession) initialize(ctx context.Context, p *InitializeParams) (*InitializeResult, error) {
	if !ss.era.CompareAndSwap(eraUndecided, eraLegacy) && ss.era.Load() != eraLegacy {
		return nil, newError(CodeInvalidRequest, "initialize is not part of protocol %s, which this connection uses", Version20260728)
	}
	if ss.initialized.Load() {
		return nil, newError(CodeInvalidRequest, "session already initialized")
	}
	s := ss.server
	version := s.negotiate(p.ProtocolVersion)
	if version == "" {
		return nil, newErrorWithData(CodeInvalidRequest,
			fmt.Sprintf("this server does not support the initialize handshake; supported protocol versions: %v", s.versions()),
			&UnsupportedProtocolVersionData{Requested: p.ProtocolVersion, Supported: s.versions()})
	}
	ss.mu.Lock()
	ss.version = version
	ss.clientInfo = p.ClientInfo
	ss.clientCaps = p.Capabilities
	ss.batchesOK = version == Version20250326
	ss.changeMark = s.changeMark()
	ss.mu.Unlock()
	ss.initialized.Store(true)
	impl := s.impl
	return &InitializeResult{
		ProtocolVersion: version,
		Capabilities:    s.capabilities(),
		ServerInfo:      &impl,
		Instructions:    s.opts.Instructions,
	}, nil
}

// negotiate picks the legacy protocol version for an initialize request:
// the client's if the server supports it, else the newest legacy version
// the server supports, or "" if it supports none.
func (s *Server) negotiate(requested string) string {
	versions := s.versions()
	if !isModernVersion(requested) && slices.Contains(versions, requested) {
		return requested
	}
	for _, v := range versions {
		if !isModernVersion(v) {
			return v
		}
	}
	return ""
}

func (ss *ServerSession) ping(context.Context, *PingParams) (*EmptyResult, error) {
	return &EmptyResult{}, nil
}

func (ss *ServerSession) discover(ctx context.Context, p *DiscoverParams) (*DiscoverResult, error) {
	s := ss.server
	impl := s.impl
	res := &DiscoverResult{
		SupportedVersions: s.versions(),
		Capabilities:      s.capabilities(),
		Instructions:      s.opts.Instructions,
	}
	res.Meta.ServerInfo = &impl
	s.setCacheHints(MethodDiscover, &res.TTLMs, &res.CacheScope)
	return res, nil
}

func (ss *ServerSession) initializedNotification(ctx context.Context, p *InitializedParams) {
	if h := ss.server.opts.InitializedHandler; h != nil {
		h(ctx, ss, p)
	}
}

func (ss *ServerSession) cancelledNotification(ctx context.Context, p *CancelledParams) {
	if conn := ss.root().conn; conn != nil {
		if id, ok := idFromRaw(p.RequestID); ok {
			conn.CancelIncoming(id)
		}
	}
}

func (ss *ServerSession) progressNotification(ctx context.Context, p *ProgressNotificationParams) {
	if h := ss.server.opts.ProgressNotificationHandler; h != nil {
		h(ctx, ss, p)
	}
}

func (ss *ServerSession) rootsListChangedNotification(ctx context.Context, p *RootsListChangedParams) {
	ss.rootsChanged()
	if h := ss.server.opts.RootsListChangedHandler; h != nil {
		h(ctx, ss, p)
	}
}

// idFromRaw converts a request id decoded as a Go value back to an ID.
func idFromRaw(v any) (jsonrpc2.ID, bool) {
	switch v := v.(type) {
	case string:
		return jsonrpc2.StringID(v), true
	case int64:
		return jsonrpc2.Int64ID(v), true
	case float64:
		if v == float64(int64(v)) {
			return jsonrpc2.Int64ID(int64(v)), true
		}
	}
	return jsonrpc2.ID{}, false
}

// serveStateless serves one 2026-07-28 request outside any connection, as
// the streamable HTTP handler does for modern clients. notify sends a
// notification related to the request (progress, log messages) on the
// request's own response stream; it may be nil when there is none. A
// notification (req.ID null) is handled and gives nil, nil.
func (s *Server) serveStateless(ctx context.Context, req *jsonrpc2.Request, notify func(ctx context.Context, method string, params any) error) (any, error) {
	return s.serveStatelessChecked(ctx, req, notify, nil)
}

// serveStatelessChecked is serveStateless with a check of the decoded
// params, run before anything else looks at them: the streamable HTTP
// handler compares its request headers with them there, so params are
// decoded once. A non-nil error from check is the request's error. check
// also runs when params could not be decoded (decodeErr is set; params is
// nil for an unknown method): it then returns the error to report instead,
// or nil to report decodeErr's.
func (s *Server) serveStatelessChecked(ctx context.Context, req *jsonrpc2.Request, notify func(ctx context.Context, method string, params any) error, check func(params any, decodeErr error) error) (any, error) {
	m := serverMethods[req.Method]
	if m == nil || m.notification != req.IsNotification() {
		if req.IsNotification() {
			return nil, nil
		}
		nf := newError(CodeMethodNotFound, "method not found: %s", req.Method)
		if check != nil {
			if cerr := check(nil, nf); cerr != nil {
				return nil, cerr
			}
		}
		return nil, nf
	}
	params := m.newParams()
	err := decodeRequestParams(req, params)
	if check != nil {
		if cerr := check(params, err); cerr != nil {
			return nil, cerr
		}
	}
	if err != nil {
		return nil, newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, err)
	}
	meta := requestMeta(params)
	if meta == nil || meta.ProtocolVersion == "" || !s.servesModern() {
		return nil, newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", "io.modelcontextprotocol/protocolVersion", Version20260728)
	}
	if err := s.checkModernMeta(meta); err != nil {
		return nil, err
	}
	if m.legacyOnly {
		return nil, newError(CodeMethodNotFound, "method %s is not part of protocol %s", req.Method, meta.ProtocolVersion)
	}
	ss := newScopedSession(s, meta, notify)
	ss.request.id = req.ID
	if req.IsNotification() {
		_, _ = s.methodHandler()(ctx, ss, req.Method, params)
		return nil, nil
	}
	return ss.serve(ctx, req.Method, params)
}

// requestMeta is metaOf with the hottest params type handled without
// reflection.
func requestMeta(params any) *Meta {
	if p, ok := params.(*CallToolParams); ok && p != nil {
		return &p.Meta
	}
	return metaOf(params)
}
