package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The eras of a connection: undecided until the first request that
// settles it.
const (
	eraUndecided int32 = iota
	eraLegacy          // initialize handshake, 2024-11-05 .. 2025-11-25
	eraModern          // per-request _meta, 2026-07-28
)

// A ServerSession is the server's side of one client connection.
//
// With the initialize handshake (protocol 2025-11-25 and earlier) it lives
// from initialize to the end of the connection. With per-request metadata
// (2026-07-28) each request is independent: handlers receive a
// ServerSession scoped to that one request, carrying the client's
// per-request capabilities, identity and protocol version. Handler code is
// the same in every revision.
type ServerSession struct {
	server *Server
	conn   sessionPeer // nil for a modern request served outside a connection

	// parent is the connection's session, for a request-scoped session.
	parent *ServerSession
	// request is the modern request this session is scoped to, or nil.
	request *modernRequest

	// sessionState is the connection's own state. A request-scoped
	// session points at noSessionState instead, so that making one per
	// request stays small.
	*sessionState
}

// sessionState is the state a session keeps for its connection: the
// protocol settled by initialize and what the client set since.
type sessionState struct {
	era         atomic.Int32
	initialized atomic.Bool // legacy: initialize was answered
	changeMark  uint64      // the server's list-change count at initialize

	mu          sync.Mutex
	version     string
	clientInfo  *Implementation
	clientCaps  *ClientCapabilities
	batchesOK   bool
	rootsCache  []*Root
	keepAliveCh chan struct{}
	closeOnce   sync.Once

	logging loggingState // logging.go: level and rate limit of log messages

	subs subscriptionSet // resource_subscribe.go: resources subscribed to (legacy)

	legacyTasks legacyTaskIndex // task_legacy_server.go: tasks created (2025-11-25), for tasks/list

	barrier     initBarrier // server_initialize.go; written only before requests are handled
	barrierOnce sync.Once
	transport   TransportInfo // of the connection, when Connect made it
	sessionID   string        // the transport's session id (HTTP+SSE), if any
	ended       []func(error) // session observers' end functions (session_observer.go)
}

// noSessionState is the state of every request-scoped session. Nothing
// writes it but what also serves a request-scoped session as a no-op
// (forgetting a roots cache that is never filled), under its locks.
var noSessionState sessionState

// state returns the session's connection state: noSessionState for a
// request-scoped session, and for a ServerSession this package did not
// make (a zero value in a handler's test), which reads as a session with
// no connection.
func (ss *ServerSession) state() *sessionState {
	if ss.sessionState == nil {
		return &noSessionState
	}
	return ss.sessionState
}

// newServerSession makes the session of a connection to the client, with
// its state, in one allocation.
func newServerSession(s *Server, conn sessionPeer) *ServerSession {
	x := &struct {
		ss ServerSession
		st sessionState
	}{}
	x.ss.server, x.ss.conn, x.ss.sessionState = s, conn, &x.st
	return &x.ss
}

// A sessionPeer is what a session needs of its connection to the client.
// *jsonrpc2.Conn is one; the streamable HTTP transport serves legacy
// sessions with a lighter one that has no goroutine while idle.
type sessionPeer interface {
	Call(ctx context.Context, method string, params any) (json.RawMessage, error)
	// NewCallID reserves the id of a request to the client, which
	// CallWithID sends; an invalid id when the peer cannot send requests.
	NewCallID() jsonrpc2.ID
	CallWithID(ctx context.Context, id jsonrpc2.ID, method string, params any) (json.RawMessage, error)
	Notify(ctx context.Context, method string, params any) error
	CancelIncoming(id jsonrpc2.ID)
	Close() error
	Wait() error
	Done() <-chan struct{}
}

// modernRequest is the per-request state of a 2026-07-28 request.
type modernRequest struct {
	input  inputState // multi round-trip state
	meta   *Meta
	notify func(ctx context.Context, method string, params any) error
	// rc is the handler's context, allocated with the request; its id is
	// the JSON-RPC id of the request.
	rc requestContext

	// logging rate-limits the log messages of a request served outside
	// any connection; made on its first message (see logLimiter).
	logging atomic.Pointer[loggingState]
}

// logLimiter returns the rate limit of the session's log messages: the
// connection's, or for a modern request outside any connection, the
// request's own.
func (ss *ServerSession) logLimiter() *loggingState {
	root := ss.root()
	if root.sessionState != &noSessionState || root.request == nil {
		return &root.state().logging
	}
	r := root.request
	if ls := r.logging.Load(); ls != nil {
		return ls
	}
	r.logging.CompareAndSwap(nil, new(loggingState))
	return r.logging.Load()
}

// Connect connects the server to a client over t and returns the session.
// The session serves requests until the connection ends; Wait blocks until
// then.
func (s *Server) Connect(ctx context.Context, t Transport) (*ServerSession, error) {
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting server: %w", err)
	}
	ss := newServerSession(s, nil)
	ss.transport, ss.sessionID = transportInfoOf(t), sessionIDOf(t)
	// The connection starts reading only once the session is complete and
	// listed, so that no handler sees it half made.
	c := jsonrpc2.NewConn(conn, &jsonrpc2.ConnOptions{
		Deferred:    true,
		Handler:     jsonrpc2.HandlerFunc(ss.handle),
		MaxInFlight: s.opts.MaxInFlight,
		Unbounded:   s.longLived,
		OnCancel:    ss.sendCancelled,
		AllowBatch:  ss.allowBatch,
		OnDone:      func() { s.removeSession(ss) },
		BaseContext: ctx,
		Received:    ss.received,
		OnWriteError: func(err error) {
			s.logger().Debug("mcp: writing a response failed", "error", err)
		},
	})
	ss.conn = c
	s.addSession(ss)
	c.Start()
	return ss, nil
}

// addSession registers a connected session: it is listed by Sessions until
// its connection ends, and pinged if KeepAlive is set. The session's peer
// must call s.removeSession(ss) when it ends (jsonrpc2.Conn does, through
// its OnDone option).
func (s *Server) addSession(ss *ServerSession) {
	s.mu.Lock()
	s.sessions = append(s.sessions, ss)
	s.mu.Unlock()
	s.sessionStarted(ss)
	select {
	case <-ss.conn.Done():
		s.removeSession(ss) // ended before it was listed
	default:
	}
	if s.opts.KeepAlive > 0 {
		ss.startKeepAlive(s.opts.KeepAlive)
	}
}

// Server returns the server the session belongs to.
func (ss *ServerSession) Server() *Server { return ss.server }

// Close ends the session's connection. For a request-scoped session it does
// nothing.
func (ss *ServerSession) Close() error {
	if ss.conn == nil || ss.parent != nil {
		return nil
	}
	ss.stopKeepAlive()
	return ss.conn.Close()
}

// Wait blocks until the connection ends and returns why (nil when the
// client disconnected). For a request-scoped session it returns at once.
func (ss *ServerSession) Wait() error {
	if ss.conn == nil || ss.parent != nil {
		return nil
	}
	err := ss.conn.Wait()
	ss.stopKeepAlive()
	return err
}

// ProtocolVersion returns the protocol version in use: negotiated by
// initialize (2025-11-25 and earlier), or the request's own (2026-07-28).
func (ss *ServerSession) ProtocolVersion() string {
	if ss.request != nil {
		return ss.request.meta.ProtocolVersion
	}
	st := ss.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.version
}

// ClientInfo returns the client's self-reported identity, or nil.
func (ss *ServerSession) ClientInfo() *Implementation {
	if ss.request != nil {
		return ss.request.meta.ClientInfo
	}
	st := ss.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.clientInfo
}

// ClientCapabilities returns what the client declared: at initialize
// (2025-11-25 and earlier), or on this request (2026-07-28). It is never
// nil.
func (ss *ServerSession) ClientCapabilities() *ClientCapabilities {
	var caps *ClientCapabilities
	if ss.request != nil {
		caps = ss.request.meta.ClientCapabilities
	} else {
		st := ss.state()
		st.mu.Lock()
		caps = st.clientCaps
		st.mu.Unlock()
	}
	if caps == nil {
		return &ClientCapabilities{}
	}
	return caps
}

func (ss *ServerSession) allowBatch() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.batchesOK
}

// connection returns the session that owns the connection.
func (ss *ServerSession) root() *ServerSession {
	if ss.parent != nil {
		return ss.parent
	}
	return ss
}

// notify sends a notification to the client through the sending
// middleware: on the request's own stream for a modern request, on the
// connection otherwise.
func (ss *ServerSession) notify(ctx context.Context, method string, params any) error {
	h := ss.server.sendingHandler()
	if h == nil {
		return ss.deliver(ctx, method, params)
	}
	_, err := sendVia(ctx, h, &requestContext{method: method, server: ss, send: sendServerNotification}, ss, params)
	return err
}

// sendServerNotification is the send function of a server notification.
func sendServerNotification(rc *requestContext, ctx context.Context, params any) (any, error) {
	return nil, rc.server.deliver(ctx, rc.method, params)
}

// deliver sends a notification to the client, after the sending
// middleware.
func (ss *ServerSession) deliver(ctx context.Context, method string, params any) error {
	if r := legacyTaskOf(ctx); r != nil {
		params = withRelatedTask(params, r.id) // a 2025-11-25 task's handler (task_legacy_server.go)
	}
	if ss.request != nil && ss.request.notify != nil {
		return ss.request.notify(ctx, method, params)
	}
	if conn := ss.root().conn; conn != nil {
		return conn.Notify(ctx, method, params)
	}
	return ErrConnectionClosed
}

// call sends a request to the client and decodes its result. Server-to-client
// requests exist only in the legacy era. rc is the request's sending context,
// nil without sending middleware; the request goes with the id rc reserved.
func (ss *ServerSession) call(ctx context.Context, rc *requestContext, method string, params, result any) error {
	root := ss.root()
	if r := legacyTaskOf(ctx); r != nil && root.conn != nil {
		return r.callClient(ctx, root, rc.callID(root.conn), method, params, result) // a 2025-11-25 task's handler (task_legacy_server.go)
	}
	if root.conn == nil || root.state().era.Load() != eraLegacy {
		return fmt.Errorf("%w: %s needs a legacy session; in 2026-07-28 servers ask through input-required results", ErrNotSupported, method)
	}
	raw, err := root.conn.CallWithID(ctx, rc.callID(root.conn), method, params)
	if err != nil {
		return err
	}
	return decodeResult(raw, result)
}

// reserveCallID gives rc, before the sending middleware runs, the id of the
// request it describes when the session sends it as a JSON-RPC request (the
// legacy era, the only one with server-to-client requests), so that the
// middleware can tell it. ask is whether the request is one of askClient's,
// which a 2026-07-28 request asks through its input-required result: no
// request id applies then.
func (ss *ServerSession) reserveCallID(ctx context.Context, rc *requestContext, ask bool) {
	root := ss.root()
	if root.conn == nil || (ask && ss.request != nil) {
		return
	}
	if legacyTaskOf(ctx) == nil && root.state().era.Load() != eraLegacy {
		return
	}
	if id := root.conn.NewCallID(); id.IsValid() {
		rc.id, rc.hasID = id, true
	}
}

// Ping checks that the client is alive.
func (ss *ServerSession) Ping(ctx context.Context, params *PingParams) error {
	if params == nil {
		params = &PingParams{}
	}
	h := ss.server.sendingHandler()
	if h == nil {
		return ss.call(ctx, nil, MethodPing, params, &EmptyResult{})
	}
	rc := &requestContext{method: MethodPing, server: ss, send: sendPing}
	ss.reserveCallID(ctx, rc, false)
	_, err := sendVia(ctx, h, rc, ss, params)
	return err
}

// sendPing is the send function of a server's ping.
func sendPing(rc *requestContext, ctx context.Context, params any) (any, error) {
	res := &EmptyResult{}
	if err := rc.server.call(ctx, rc, MethodPing, params, res); err != nil {
		return nil, err
	}
	return res, nil
}

// ID returns the session's id: the Mcp-Session-Id header of a streamable
// HTTP session made by initialize, the sessionId of an HTTP+SSE session, or ""
// when it has none (stdio, in-memory, and every 2026-07-28 request).
func (ss *ServerSession) ID() string {
	if ss.request != nil {
		return ""
	}
	if sess, ok := ss.root().conn.(*httpSession); ok {
		return sess.id
	}
	return ss.state().sessionID
}

// NotifyProgress reports progress on the request whose progress token is
// params.ProgressToken. It does nothing if the token is nil: the client did
// not ask for progress.
func (ss *ServerSession) NotifyProgress(ctx context.Context, params *ProgressNotificationParams) error {
	if params == nil || params.ProgressToken == nil {
		return nil
	}
	return ss.notify(ctx, NotificationProgress, params)
}

func (ss *ServerSession) sendCancelled(id jsonrpc2.ID) {
	p := &CancelledParams{RequestID: id.Raw(), Reason: "request cancelled"}
	sendCancelledNotification(ss.server.logger(), ss.notify, p) // session_call.go
}

func (ss *ServerSession) startKeepAlive(interval time.Duration) {
	ss.keepAliveCh = make(chan struct{})
	go keepAlive(ss.keepAliveCh, ss.conn.Done(), interval, ss.Ping, ss.conn.Close)
}

func (ss *ServerSession) stopKeepAlive() {
	ss.closeOnce.Do(func() {
		if ss.keepAliveCh != nil {
			close(ss.keepAliveCh)
		}
	})
}

// keepAlive pings every interval and closes the session on the first
// failure. It ends when stop or done is closed.
func keepAlive(stop <-chan struct{}, done <-chan struct{}, interval time.Duration, ping func(context.Context, *PingParams) error, closeFn func() error) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-done:
			return
		case <-ticker.C:
			ctx, cancel := context.WithTimeout(context.Background(), interval)
			err := ping(ctx, nil)
			cancel()
			switch {
			case err == nil, errors.Is(err, ErrConnectionClosed):
			case errors.Is(err, errNoClientStream):
				// A legacy HTTP client without a GET stream cannot be
				// pinged; its session ends by idle expiry instead.
			default:
				// The peer stopped answering: the session ends. Closing a
				// connection to a gone peer has nothing useful to report.
				_ = closeFn()
				return
			}
		}
	}
}
