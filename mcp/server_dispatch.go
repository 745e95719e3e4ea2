package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Every request and notification a server receives, on every transport
// and in every protocol revision, goes through Server.dispatch: look the
// method up in the table (serverMethods), decode its params once,
// settle the revision and the session that serves it, check what the
// method needs, then run the receiving middleware and the handler (with
// panic recovery) and hand back the result for encoding.

// A source is where an incoming message came from.
type source struct {
	// session is the session of the connection the message came on, or nil
	// for a 2026-07-28 request served outside any connection (HTTP).
	session *ServerSession
	// notify sends the notifications related to a request served outside
	// a connection on the request's own stream; it may be nil.
	notify func(ctx context.Context, method string, params any) error
	// check, if set, sees the decoded params (or the decoding error) first
	// and may refuse the request; see serveStatelessChecked.
	check func(params any, decodeErr error) error
}

// serverMethodHandler is the server's base MethodHandler: it runs the
// method's handler. Receiving middleware wraps it.
func serverMethodHandler(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
	m := ss.server.lookup(method)
	if m == nil {
		return nil, newError(CodeMethodNotFound, "method not found: %s", method)
	}
	return m.handle(ctx, ss, params)
}

// lookup returns the row of method in the server's method table.
func (s *Server) lookup(method string) *methodInfo[ServerSession] {
	return s.methods.lookup(serverMethods, method)
}

// longLived reports whether requests of method are long-lived streams
// that the in-flight bound does not count (MethodOptions.LongLived).
func (s *Server) longLived(method string) bool {
	m := s.lookup(method)
	return m != nil && (m.longLived || m.alt != nil && m.alt.longLived)
}

// handle is the jsonrpc2 handler of a connection's session. Results with
// a direct encoding are returned encoded.
func (ss *ServerSession) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	return encodeResult(ss.handleRequest(ctx, req))
}

// handleRequest serves a message that came on the session's connection,
// without encoding the result, for transports that make the response
// themselves.
func (ss *ServerSession) handleRequest(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	return ss.server.dispatch(ctx, req, source{session: ss})
}

// serveStateless serves one 2026-07-28 request outside any connection, as
// the streamable HTTP handler does for modern clients. notify sends a
// notification related to the request (progress, log messages) on the
// request's own response stream; it may be nil when there is none. A
// notification (req.ID null) is handled and gives nil, nil.
func (s *Server) serveStateless(ctx context.Context, req *jsonrpc2.Request, notify func(ctx context.Context, method string, params any) error) (any, error) {
	return s.dispatch(ctx, req, source{notify: notify})
}

// serveStatelessChecked is serveStateless with a check of the decoded
// params, run before anything else looks at them: the streamable HTTP
// handler compares its request headers with them there, so params are
// decoded once. A non-nil error from check is the request's error. check
// also runs when params could not be decoded (decodeErr is set; params is
// nil for an unknown method): it then returns the error to report instead,
// or nil to report decodeErr's.
func (s *Server) serveStatelessChecked(ctx context.Context, req *jsonrpc2.Request, notify func(ctx context.Context, method string, params any) error, check func(params any, decodeErr error) error) (any, error) {
	return s.dispatch(ctx, req, source{notify: notify, check: check})
}

// dispatch is the one decode-and-route step of every incoming message.
// For a notification it returns nil, nil.
func (s *Server) dispatch(ctx context.Context, req *jsonrpc2.Request, src source) (any, error) {
	if req.Method == MethodInitialize && src.session != nil {
		defer src.session.initializeServed() // server_initialize.go
	}
	m := s.lookup(req.Method)
	notification := req.IsNotification()
	if m == nil || m.notification != notification {
		if notification {
			return nil, nil // unknown notifications are ignored
		}
		return nil, src.checked(nil, newError(CodeMethodNotFound, "method not found: %s", req.Method))
	}
	var decodeErr error
	// Params an authorizer's step decoded (http_authorize.go) are of the
	// protocol's type, as every row of a protocol method's params are
	// (splitRow in method.go refuses another).
	params := jsonrpc2.TakeDecodedParams(req)
	if params == nil {
		params = m.newParams()
		decodeErr = decodeRequestParams(req, params)
	}
	if src.check != nil {
		if err := src.check(params, decodeErr); err != nil {
			return nil, err
		}
	}
	switch {
	case decodeErr != nil && notification:
		return nil, nil
	case decodeErr != nil:
		return nil, newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, decodeErr)
	case notification:
		s.dispatchNotification(ctx, req, m, params, src)
		return nil, nil
	}
	ss, err := s.route(ctx, req, m, params, src)
	if err != nil {
		return nil, err
	}
	if m, err = s.admit(req.Method, m, ss); err != nil { // method_capability.go
		return nil, err
	}
	if err := m.check(params); err != nil {
		return nil, err
	}
	res, err := ss.serve(incomingContext(ctx, req, ss, nil), req.Method, params)
	if ss.request != nil {
		// 2026-07-28 results identify the server (result_server_info.go).
		return s.withServerInfo(res, err)
	}
	return res, err
}

// checked returns what src's check makes of err, a failure before params
// were decoded.
func (src *source) checked(params any, err error) error {
	if src.check != nil {
		if cerr := src.check(params, err); cerr != nil {
			return cerr
		}
	}
	return err
}

// dispatchNotification serves a decoded notification. Errors have nowhere
// to go: a notification that does not fit the session is dropped.
func (s *Server) dispatchNotification(ctx context.Context, req *jsonrpc2.Request, m *methodInfo[ServerSession], params any, src source) {
	meta := requestMeta(params)
	perRequest := meta != nil && meta.ProtocolVersion != ""
	var ss *ServerSession
	switch {
	case src.session == nil:
		if !perRequest || !s.servesModern() || s.checkModernMeta(meta) != nil || !m.existsIn(meta.ProtocolVersion) {
			return
		}
		ss = newScopedSession(s, meta, src.notify)
	case perRequest:
		ss = src.session.requestScoped(meta, nil)
	default:
		ss = src.session
	}
	if _, err := s.invoke(incomingContext(ctx, req, ss, nil), ss, req.Method, params); err != nil {
		s.logger().Debug("mcp: notification handler failed", "method", req.Method, "error", err)
	}
}

// route settles the protocol revision of a request and returns the session
// that serves it: the connection's own (initialize handshake) or one scoped
// to the request (per-request metadata).
func (s *Server) route(ctx context.Context, req *jsonrpc2.Request, m *methodInfo[ServerSession], params any, src source) (*ServerSession, error) {
	meta := requestMeta(params)
	if src.session != nil {
		return src.session.route(ctx, req, m, meta)
	}
	if meta == nil || meta.ProtocolVersion == "" || !s.servesModern() {
		return nil, newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", "io.modelcontextprotocol/protocolVersion", Version20260728)
	}
	if err := s.checkModernMeta(meta); err != nil {
		return nil, err
	}
	if !m.existsIn(meta.ProtocolVersion) {
		return nil, notInRevision(req.Method, meta.ProtocolVersion)
	}
	return newScopedSession(s, meta, src.notify), nil
}

// notInRevision is the error of a method that protocol version lacks.
func notInRevision(method, version string) error {
	return newError(CodeMethodNotFound, "method %s is not part of protocol %s", method, version)
}

// route settles the protocol of a request on the session's connection:
// the initialize handshake, or per-request metadata (2026-07-28). On a
// connection whose first message was initialize, requests wait until
// initialize has been answered.
func (ss *ServerSession) route(ctx context.Context, req *jsonrpc2.Request, m *methodInfo[ServerSession], meta *Meta) (*ServerSession, error) {
	method := req.Method
	if method == MethodInitialize {
		return ss, nil // initialize settles the era itself
	}
	if err := ss.awaitInitialize(ctx); err != nil {
		return nil, err
	}
	early := ss.arrivedEarly(req.ID) // server_initialize.go
	perRequest := meta != nil && meta.ProtocolVersion != ""
	switch era := ss.era.Load(); {
	case era == eraLegacy:
		if (early || !ss.initialized.Load()) && !m.beforeInit {
			return nil, newError(CodeInvalidRequest, "session not initialized: %s sent before initialize completed", method)
		}
		if v := ss.ProtocolVersion(); !m.existsIn(v) {
			return nil, notInRevision(method, v)
		}
		return ss, nil
	case perRequest && ss.server.servesModern():
		if err := ss.server.checkModernMeta(meta); err != nil {
			return nil, err
		}
		if !m.existsIn(meta.ProtocolVersion) {
			return nil, notInRevision(method, meta.ProtocolVersion)
		}
		if method != MethodDiscover {
			// server/discover is a probe: a client that finds no common
			// modern version may still initialize on this connection.
			ss.era.CompareAndSwap(eraUndecided, eraModern)
		}
		return ss.requestScoped(meta, nil), nil
	case m.beforeInit:
		return ss, nil
	case meta.isEmpty() || !ss.server.servesModern():
		return nil, newError(CodeInvalidRequest,
			"session not initialized: %s sent before initialize (protocol 2025-11-25 and earlier); protocol 2026-07-28 requests carry their protocol version, client capabilities and client info in _meta instead", method)
	}
	return nil, newError(CodeInvalidParams,
		"missing _meta[%q]: send initialize first (protocol 2025-11-25 and earlier) or include the protocol version, client capabilities and client info in every request's _meta (2026-07-28)",
		"io.modelcontextprotocol/protocolVersion")
}

// serve runs a routed request through the receiving middleware and the
// handler and, for per-request metadata, completes the result: an
// input-required result when the handler asked the client for input, else
// resultType "complete".
func (ss *ServerSession) serve(ctx context.Context, method string, params any) (any, error) {
	if ss.request != nil {
		if err := ss.beginInput(method, params); err != nil {
			return nil, err
		}
	}
	res, err := ss.server.invoke(ctx, ss, method, params)
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
		} else if f := structField(res, resultTypeName, stringType); f.IsValid() {
			if f.String() == "" {
				f.SetString("complete")
			}
		} else if m := serverMethods[method]; m == nil || !m.methodSpec.existsIn(ss.request.meta.ProtocolVersion) {
			return completeAdded(res) // an added method's result type may lack the field
		}
	}
	return res, nil
}

// completeAdded returns the encoding of a result of an added method with
// "resultType":"complete" added, unless it has a resultType already or is
// not a JSON object.
func completeAdded(res any) (any, error) {
	b, err := strictjson.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("mcp: encoding result: %w", err)
	}
	var probe struct {
		ResultType *string `json:"resultType"`
	}
	if len(b) < 2 || b[0] != '{' || strictjson.Unmarshal(b, &probe) != nil || probe.ResultType != nil {
		return json.RawMessage(b), nil
	}
	out := append([]byte(`{"resultType":"complete"`), b[1:]...)
	if len(b) > 2 {
		out = slices.Insert(out, len(`{"resultType":"complete"`), ',')
	}
	return json.RawMessage(out), nil
}

// invoke runs the receiving middleware and the method's handler. Unless
// recovery is off, a panic becomes an internal error.
func (s *Server) invoke(ctx context.Context, ss *ServerSession, method string, params any) (res any, err error) {
	h := s.methodHandler()
	if !s.opts.DisablePanicRecovery {
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, panicError(s.logger(), method, v)
			}
		}()
	}
	return h(ctx, ss, method, params)
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
	sc.ss.server, sc.ss.request, sc.ss.sessionState = s, &sc.req, &noSessionState
	return &sc.ss
}

// requestMeta is metaOf with the hottest params type handled without
// reflection.
func requestMeta(params any) *Meta {
	if p, ok := params.(*CallToolParams); ok && p != nil {
		return &p.Meta
	}
	return metaOf(params)
}

// serverMethods is the server's method table: every request and
// notification of the protocol a server handles, with its params and
// result types (through its handler's signature), the protocol revisions
// it exists in, the capability it belongs to and the params it requires.
// It is written once here and never changed; methods beyond the protocol's
// are added per server with Server.AddMethods. Every incoming message is
// served from it by Server.dispatch.
var serverMethods = map[string]*methodInfo[ServerSession]{
	// Lifecycle (server_lifecycle.go).
	MethodInitialize:        requestMethod((*ServerSession).initialize, methodSpec[ServerSession]{until: lastHandshakeVersion}),
	MethodPing:              requestMethod((*ServerSession).ping, methodSpec[ServerSession]{until: lastHandshakeVersion, beforeInit: true}),
	MethodDiscover:          requestMethod((*ServerSession).discover, methodSpec[ServerSession]{since: firstPerRequestMeta}),
	NotificationInitialized: notificationMethod((*ServerSession).initializedNotification, methodSpec[ServerSession]{until: lastHandshakeVersion}),
	NotificationCancelled:   notificationMethod((*ServerSession).cancelledNotification, methodSpec[ServerSession]{}),
	NotificationProgress:    notificationMethod((*ServerSession).progressNotification, methodSpec[ServerSession]{}),
	NotificationRootsListChanged: notificationMethod((*ServerSession).rootsListChangedNotification,
		methodSpec[ServerSession]{until: lastHandshakeVersion}),

	// Tools (tool.go; tools/call may become a task, task_server.go).
	MethodListTools: requestMethod((*ServerSession).listTools, methodSpec[ServerSession]{capability: "tools"}),
	MethodCallTool:  callToolMethod(methodSpec[ServerSession]{capability: "tools", validate: requireToolName}),

	// Prompts (prompt.go).
	MethodListPrompts: requestMethod((*ServerSession).listPrompts, methodSpec[ServerSession]{capability: "prompts"}),
	MethodGetPrompt:   requestMethod((*ServerSession).getPrompt, methodSpec[ServerSession]{capability: "prompts", validate: requirePromptName}),

	// Resources (resource.go, resource_read.go, resource_subscribe.go).
	MethodListResources:         requestMethod((*ServerSession).listResources, methodSpec[ServerSession]{capability: "resources"}),
	MethodListResourceTemplates: requestMethod((*ServerSession).listResourceTemplates, methodSpec[ServerSession]{capability: "resources"}),
	MethodReadResource:          requestMethod((*ServerSession).readResource, methodSpec[ServerSession]{capability: "resources", validate: requireResourceURI}),
	MethodSubscribe: requestMethod((*ServerSession).subscribe, methodSpec[ServerSession]{
		until: lastHandshakeVersion, capability: "resources.subscribe",
		enabled: subscriptionsEnabled, unsupported: "this server does not support resource subscriptions",
	}),
	MethodUnsubscribe: requestMethod((*ServerSession).unsubscribe, methodSpec[ServerSession]{
		until: lastHandshakeVersion, capability: "resources.subscribe",
		enabled: subscriptionsEnabled, unsupported: "this server does not support resource subscriptions",
	}),
	MethodSubscriptionsListen: requestMethod((*ServerSession).subscriptionsListen, methodSpec[ServerSession]{since: firstPerRequestMeta}),

	// Completion (completion.go) and logging (logging.go).
	MethodComplete:        requestMethod((*ServerSession).complete, methodSpec[ServerSession]{capability: "completions", validate: requireCompletionRef}),
	MethodSetLoggingLevel: requestMethod((*ServerSession).setLoggingLevel, methodSpec[ServerSession]{until: lastHandshakeVersion, capability: "logging"}),

	// In 2025-11-25 tasks are core methods (task_legacy_server.go). Since
	// 2026-07-28 tasks/get, tasks/update and tasks/cancel are the tasks
	// extension's, added with Server.AddExtension (task_server.go).
	MethodGetTask:        requestMethod((*ServerSession).getLegacyTask, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks"}),
	MethodCancelTask:     requestMethod((*ServerSession).cancelLegacyTask, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks.cancel"}),
	MethodGetTaskPayload: requestMethod((*ServerSession).taskPayload, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks"}),
	MethodListTasks:      requestMethod((*ServerSession).listLegacyTasks, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks.list"}),
}

// subscriptionsEnabled reports whether the session's server takes
// resources/subscribe.
func subscriptionsEnabled(ss *ServerSession) bool { return ss.server.subscriptionsSupported() }

// callToolMethod is the row of tools/call: a call of a tool that supports
// tasks, from a 2026-07-28 client that declared the tasks extension or a
// task-augmented call of 2025-11-25, may be answered with a task rather
// than a CallToolResult.
func callToolMethod(spec methodSpec[ServerSession]) *methodInfo[ServerSession] {
	m := requestMethod((*ServerSession).callTool, spec)
	synchronous := m.handle
	m.handle = func(ctx context.Context, ss *ServerSession, params any) (any, error) {
		if res, ok, err := ss.callToolAsTask(ctx, params.(*CallToolParams)); ok {
			return res, err
		}
		if res, ok, err := ss.callToolAsLegacyTask(ctx, params.(*CallToolParams)); ok {
			return res, err
		}
		return synchronous(ctx, ss, params)
	}
	return m
}

// Checks of required params (the spec's required members).

func requireToolName(params any) error {
	if params.(*CallToolParams).Name == "" {
		return newError(CodeInvalidParams, "missing tool name: tools/call needs params.name")
	}
	return nil
}

func requirePromptName(params any) error {
	if params.(*GetPromptParams).Name == "" {
		return newError(CodeInvalidParams, "missing prompt name: prompts/get needs params.name")
	}
	return nil
}

func requireResourceURI(params any) error {
	if params.(*ReadResourceParams).URI == "" {
		return newError(CodeInvalidParams, "missing resource uri: resources/read needs params.uri")
	}
	return nil
}

func requireCompletionRef(params any) error {
	p := params.(*CompleteParams)
	if p.Ref == nil {
		return newError(CodeInvalidParams, "Invalid completion request: missing ref")
	}
	return nil
}
