package mcp

import (
	"context"
	"iter"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// ServerOptions configure a Server. A nil *ServerOptions means defaults.
type ServerOptions struct {
	// Title, Description and WebsiteURL complete the server's
	// Implementation (2025-06-18 and later).
	Title       string
	Description string
	WebsiteURL  string
	// Icons for the server (2025-11-25 and later).
	Icons []Icon
	// Instructions tell the client how to use the server; they are sent in
	// the initialize and server/discover results.
	Instructions string
	// Capabilities, if set, are the base of what the server declares. The
	// server adds the capabilities its registered features imply.
	Capabilities *ServerCapabilities
	// ProtocolVersions restricts the protocol versions served, newest first.
	// Nil means every version SupportedVersions returns.
	ProtocolVersions []string
	// CacheHints sets the cache hints (2026-07-28 ttlMs and cacheScope) of
	// the server's cacheable results, by method (MethodListTools,
	// MethodReadResource, MethodDiscover, ...); the entry for "" applies to
	// the methods not listed. A result whose handler sets its own hints
	// keeps them. Nil means immediately stale and private.
	CacheHints map[string]CacheHint
	// PageSize is the number of items in a page of tools/list and the other
	// list methods (default DefaultPageSize).
	PageSize int
	// KeepAlive, if positive, pings each connected client at this interval
	// and closes the session when a ping fails. A streamable HTTP client
	// of 2025-11-25 or earlier is pinged on its GET stream; one that has not opened that
	// stream is not pinged, and its session ends by idle expiry
	// (StreamableHTTPOptions.SessionTimeout).
	KeepAlive time.Duration
	// MaxInFlight bounds the requests of one session handled at once
	// (default 256); requests over the bound are refused with an error.
	MaxInFlight int
	// RequestStateKey signs the requestState of input-required results
	// (2026-07-28) with HMAC-SHA256. Servers behind a load balancer must
	// share one key; nil means a random key per process.
	RequestStateKey []byte
	// PreviousRequestStateKeys are keys that signed requestStates before
	// RequestStateKey replaced them: states they signed are still accepted
	// until they expire. To rotate keys across instances, deploy the new
	// key with the old one listed here, and drop the old one after
	// RequestStateTTL.
	PreviousRequestStateKeys [][]byte
	// EventBus, if set, shares list changes, resource updates and task
	// status with the other instances of this server that use the same bus,
	// so that clients connected to any instance hear of changes made on any
	// other. Nil means this process only.
	EventBus EventBus
	// RequestStateTTL is how long a requestState stays valid (default
	// DefaultRequestStateTTL).
	RequestStateTTL time.Duration
	// SubscribeHandler and UnsubscribeHandler, if set, are called when a
	// client subscribes to or unsubscribes from a resource's updates
	// (2025-11-25 and earlier). Setting them declares the resources.subscribe
	// capability; set both or neither.
	SubscribeHandler   func(context.Context, *ServerSession, *SubscribeParams) error
	UnsubscribeHandler func(context.Context, *ServerSession, *UnsubscribeParams) error
	// LoggerName is the default "logger" of log messages sent to clients.
	LoggerName string
	// LoggingInterval is the minimum time between two log messages sent to
	// one client; messages in between are dropped. Zero means no limit.
	LoggingInterval time.Duration
	// InitializedHandler, if set, is called when a client sends
	// notifications/initialized (2025-11-25 and earlier).
	InitializedHandler func(context.Context, *ServerSession, *InitializedParams)
	// RootsListChangedHandler, if set, is called when a client reports that
	// its roots changed.
	//
	// Deprecated: protocol 2026-07-28 deprecates roots (SEP-2577). They still
	// work with every protocol version; new programs should pass directories
	// and files as tool arguments, resource URIs or configuration instead.
	RootsListChangedHandler func(context.Context, *ServerSession, *RootsListChangedParams)
	// ProgressNotificationHandler, if set, is called for progress the client
	// reports on a request the server sent it.
	ProgressNotificationHandler func(context.Context, *ServerSession, *ProgressNotificationParams)
	// Tasks configures the tasks extension (io.modelcontextprotocol/tasks):
	// where tasks are stored, their TTL and polling interval. Nil means
	// defaults.
	Tasks *TaskOptions
	// Logger receives what the server cannot return to a caller: recovered
	// panics, failed writes, dropped notifications. Nil means
	// slog.Default().
	Logger *slog.Logger
	// DisablePanicRecovery lets a panic in a handler or middleware crash the
	// program. By default the server recovers it, answers the request with
	// an internal error (a tool call: a result with IsError), logs the
	// stack to Logger and keeps serving.
	DisablePanicRecovery bool
}

// A Server is an MCP server: a set of tools (and, with later features,
// prompts and resources) served to any number of clients. Each client
// connection is a ServerSession. A Server is safe for concurrent use;
// features added or removed while clients are connected reach them at once.
type Server struct {
	impl Implementation
	opts ServerOptions

	tools     featureSet[*ServerTool]
	prompts   featureSet[*ServerPrompt]
	resources featureSet[*ServerResource]
	templates featureSet[*ServerResourceTemplate]

	listeners      listeners
	pendingChanges map[string]uint64    // list_changed notifications scheduled, by method: the last change
	lastFlush      map[string]time.Time // when each method's list_changed notification last went out
	changeDelay    time.Duration        // listChangedDelay, unless a test sets it
	changeSeq      uint64               // list changes so far
	shutdown       chan struct{}        // closed by Close

	closeOnce     sync.Once
	stateKeyOnce  sync.Once
	stateKeyBytes []byte

	mu        sync.Mutex
	sessions  []*ServerSession
	receiving middlewareChain[ServerSession] // around serverMethodHandler
	sending   middlewareChain[ServerSession] // around sendBase
	observers []func(*ServerSession) func(error)

	methods    addedMethods[ServerSession] // beyond the protocol's (method.go)
	extensions extensionSet                // turned on with AddExtension (extension.go)
	topLevel   extensionSet                // declared with AddCapability (extension.go)
	addedLists extensionSet                // listen filter members to methods, AddListChangedFilter (subscriptions_listen.go)

	tasks taskEngine // the tasks extension's state (task_server.go)

	info serverInfoOnce // the encoded serverInfo of results (result_server_info.go)

	scale scaleState // sharing with other instances (event_bus.go)
}

// NewServer returns a server that identifies itself with name and version.
func NewServer(name, version string, opts *ServerOptions) *Server {
	s := &Server{
		impl:     Implementation{Name: name, Version: version},
		shutdown: make(chan struct{}),
	}
	if opts != nil {
		s.opts = *opts
		s.impl.Title = opts.Title
		s.impl.Description = opts.Description
		s.impl.WebsiteURL = opts.WebsiteURL
		s.impl.Icons = opts.Icons
	}
	s.receiving.handler = serverMethodHandler
	s.startBus()
	s.declaredTasks() // task_server.go
	return s
}

// AddMiddleware wraps the handler of every request and
// notification the server receives: AddMiddleware(m1, m2) runs
// m1, then m2, then the method's handler. It applies to sessions connected
// before and after the call.
func (s *Server) AddMiddleware(middleware ...Middleware[ServerSession]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.receiving.add(serverMethodHandler, middleware)
}

// AddSendingMiddleware wraps every request and notification the server
// sends: notifications (progress, log messages, list changes, resource
// updates) and requests to the client (sampling, elicitation, roots, ping;
// in 2026-07-28 the input requests of an input-required result, whose
// first run ends with an error and whose retry returns the answer). The
// middleware sees the typed params before they are encoded, so it may set
// their _meta, and the decoded result or error after.
func (s *Server) AddSendingMiddleware(middleware ...Middleware[ServerSession]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sending.add(sendBase[ServerSession], middleware)
}

// methodHandler returns the handler of received messages, middleware
// included.
func (s *Server) methodHandler() MethodHandler[ServerSession] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.receiving.handler
}

// hasReceivingMiddleware reports whether received messages go through
// middleware.
func (s *Server) hasReceivingMiddleware() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.receiving.middleware) > 0
}

// sendingHandler returns the handler of sent messages, or nil when there
// is no sending middleware.
func (s *Server) sendingHandler() MethodHandler[ServerSession] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sending.handler
}

// logger returns the logger of what the server cannot return.
func (s *Server) logger() *slog.Logger {
	if s.opts.Logger != nil {
		return s.opts.Logger
	}
	return slog.Default()
}

// Close ends the server's 2026-07-28 subscriptions/listen streams
// gracefully (each gets its completion result) and closes every connected
// session. The server can still accept new connections afterwards, but its
// listen streams end at once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.shutdown); s.stopBus(); s.listeners.interruptWaiting() })
	for ss := range s.Sessions() {
		ss.Close()
	}
	return nil
}

// Sessions iterates over the sessions connected now.
func (s *Server) Sessions() iter.Seq[*ServerSession] {
	s.mu.Lock()
	sessions := slices.Clone(s.sessions)
	s.mu.Unlock()
	return slices.Values(sessions)
}

// removeSession forgets a session that ended and tells the session
// observers. It may be called more than once.
func (s *Server) removeSession(ss *ServerSession) {
	s.mu.Lock()
	s.sessions = slices.DeleteFunc(s.sessions, func(x *ServerSession) bool { return x == ss })
	s.mu.Unlock()
	ss.sessionEnded()
}

// Run connects the server over t and serves until the client disconnects
// or ctx is done. A client closing the connection is not an error.
func (s *Server) Run(ctx context.Context, t Transport) error {
	ss, err := s.Connect(ctx, t)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		ss.Close()
		<-done
		return ctx.Err()
	}
}

// versions returns the protocol versions this server serves, newest first.
func (s *Server) versions() []string {
	if s.opts.ProtocolVersions != nil {
		return s.opts.ProtocolVersions
	}
	return supportedVersions
}

func (s *Server) supports(version string) bool {
	return slices.Contains(s.versions(), version)
}

// capabilities returns what the server declares now.
func (s *Server) capabilities() *ServerCapabilities {
	caps := &ServerCapabilities{}
	if s.opts.Capabilities != nil {
		*caps = *s.opts.Capabilities
	}
	caps.Extensions = s.extensions.merge(caps.Extensions) // extension.go
	caps.Other = s.topLevel.merge(caps.Other)
	if s.tools.len() > 0 && caps.Tools == nil {
		caps.Tools = &ToolCapabilities{ListChanged: true}
	}
	promptCapabilities(s, caps)     // prompt.go
	resourceCapabilities(s, caps)   // resource.go
	completionCapabilities(s, caps) // completion.go
	loggingCapabilities(s, caps)    // logging.go
	return caps
}

// A CacheHint tells 2026-07-28 clients how long, and how widely, they may
// cache a result: the ttlMs and cacheScope members of list results,
// resources/read and server/discover.
type CacheHint struct {
	// TTL is how long the result stays fresh. Zero means immediately stale:
	// the client may re-fetch every time.
	TTL time.Duration
	// Scope is CacheScopePrivate (the default: caches must not be shared
	// across authorization contexts) or CacheScopePublic.
	Scope string
}

// setCacheHints fills the cache hints of a 2026-07-28 cacheable result of
// method, unless its handler already set them (per-item hints): from
// ServerOptions.CacheHints[method], else CacheHints[""], else immediately
// stale and private.
func (s *Server) setCacheHints(method string, ttl **int64, scope *string) {
	hint, ok := s.opts.CacheHints[method]
	if !ok {
		hint = s.opts.CacheHints[""]
	}
	if *ttl == nil {
		ms := hint.TTL.Milliseconds()
		if ms < 0 {
			ms = 0
		}
		*ttl = &ms
	}
	if *scope == "" {
		*scope = hint.Scope
		if *scope == "" {
			*scope = CacheScopePrivate
		}
	}
}
