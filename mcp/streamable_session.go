package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// errNoClientStream reports a server-to-client request that no stream can
// carry: it is unrelated to any request in progress (or that request's
// response is a single JSON object) and the client has no GET stream open.
var errNoClientStream = errors.New("mcp: the client has no open stream to receive the request (it must open the GET stream)")

// An httpSession is a legacy session (protocol 2025-03-26 to 2025-11-25)
// of the streamable HTTP handler, and the connection (sessionPeer) of its
// ServerSession.
//
// It has no goroutine: each POST is served on its own HTTP request's
// goroutine, messages to the client are written to the stream of the
// request they relate to or to the GET stream, and the responses to the
// server's requests arrive in later POSTs, matched through a table of
// pending calls. An idle session is this struct, its ServerSession and an
// expiry timer.
type httpSession struct {
	id       string
	owner    string // WithSessionOwner of the initialize request
	h        *StreamableHTTPHandler
	ss       *ServerSession
	lastUsed atomic.Int64 // unix nanoseconds
	timer    *time.Timer

	mu         sync.Mutex
	closed     bool
	done       chan struct{}
	active     int // HTTP requests being served, streams included
	incoming   map[jsonrpc2.ID]context.CancelFunc
	pending    map[jsonrpc2.ID]chan *jsonrpc2.Response
	nextCall   int64
	streams    map[string]*responseStream // resumable streams in progress
	nextStream int
	standalone *responseStream // the GET stream, once opened
	// unbounded holds the ids of incoming that the in-flight bound does
	// not count: long-lived requests (MethodOptions.LongLived); guarded
	// by mu.
	unbounded map[jsonrpc2.ID]bool

	shared sharedSession // with other instances (session_store.go)
}

// newSessionID returns a cryptographically random session ID of visible
// ASCII characters.
func newSessionID() string { return rand.Text() }

func (h *StreamableHTTPHandler) newHTTPSession(s *Server) *httpSession {
	sess := &httpSession{id: newSessionID(), h: h, done: make(chan struct{})}
	sess.ss = newServerSession(s, sess)
	sess.lastUsed.Store(time.Now().UnixNano())
	return sess
}

// enter and leave bracket every HTTP request served for the session; a
// session with requests in progress does not expire.
func (sess *httpSession) enter() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.closed {
		return false
	}
	sess.active++
	return true
}

func (sess *httpSession) leave() {
	sess.lastUsed.Store(time.Now().UnixNano())
	sess.mu.Lock()
	sess.active--
	sess.mu.Unlock()
}

// startExpiry arms the idle timer.
func (sess *httpSession) startExpiry(timeout time.Duration) {
	if timeout > 0 {
		sess.timer = time.AfterFunc(timeout, func() { sess.checkIdle(timeout) })
	}
}

// expired reports whether the session has been idle, with no request in
// progress, for timeout.
func (sess *httpSession) expired(timeout time.Duration) bool {
	idle := time.Since(time.Unix(0, sess.lastUsed.Load()))
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return !sess.closed && sess.active == 0 && idle >= timeout
}

// expire closes a session that expired.
func (sess *httpSession) expire() {
	sess.h.opts.Logger.Info("mcp: closing an expired session", "session", sess.id)
	sess.Close()
}

// checkIdle closes the session if it has been idle for timeout, and
// re-arms the timer otherwise.
func (sess *httpSession) checkIdle(timeout time.Duration) {
	idle := time.Since(time.Unix(0, sess.lastUsed.Load()))
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return
	}
	if sess.active > 0 || idle < timeout {
		next := timeout - idle
		if sess.active > 0 || next <= 0 {
			next = timeout
		}
		sess.timer.Reset(next)
		sess.mu.Unlock()
		return
	}
	sess.mu.Unlock()
	sess.expire()
}

// admit registers an incoming request and returns its context, or the
// error that refuses it.
func (sess *httpSession) admit(ctx context.Context, req *jsonrpc2.Request) (context.Context, *jsonrpc2.Error) {
	id := req.ID
	longLived := sess.ss.server.longLived(req.Method)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	switch {
	case sess.closed:
		return nil, &jsonrpc2.Error{Code: CodeInternalError, Message: "session closed"}
	case !longLived && len(sess.incoming)-len(sess.unbounded) >= sess.h.maxInFlight(sess.ss.server):
		return nil, &jsonrpc2.Error{Code: CodeInternalError, Message: jsonrpc2.ErrBusy.Error()}
	case sess.incoming[id] != nil:
		return nil, &jsonrpc2.Error{Code: CodeInvalidRequest, Message: "request id " + id.String() + " is already in use"}
	}
	ctx, cancel := context.WithCancel(ctx)
	if sess.incoming == nil {
		sess.incoming = make(map[jsonrpc2.ID]context.CancelFunc)
	}
	sess.incoming[id] = cancel
	if longLived {
		if sess.unbounded == nil {
			sess.unbounded = make(map[jsonrpc2.ID]bool)
		}
		sess.unbounded[id] = true
	}
	return ctx, nil
}

// release forgets an incoming request and cancels its context.
func (sess *httpSession) release(id jsonrpc2.ID) {
	sess.mu.Lock()
	cancel := sess.incoming[id]
	delete(sess.incoming, id)
	delete(sess.unbounded, id)
	sess.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// newStream creates the stream of a POST request; resumable ones get an ID
// and are registered so a GET with Last-Event-ID can find them.
func (sess *httpSession) newStream(st *responseStream, resumable bool) {
	st.sess = sess
	if !resumable {
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.nextStream++
	st.id = sess.streamPrefix() + fmt.Sprint(sess.nextStream)
	if sess.streams == nil {
		sess.streams = make(map[string]*responseStream)
	}
	sess.streams[st.id] = st
}

// stream returns the resumable stream id, or nil if it ended or never was.
func (sess *httpSession) stream(id string) *responseStream {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if id == sess.streamPrefix()+standaloneStreamID {
		return sess.standalone
	}
	return sess.streams[id]
}

func (sess *httpSession) dropStream(id string) {
	sess.mu.Lock()
	delete(sess.streams, id)
	sess.mu.Unlock()
}

// standaloneStreamID is the stream ID of a session's GET stream.
const standaloneStreamID = "0"

// getStandalone returns the session's GET stream, creating it if needed.
func (sess *httpSession) getStandalone() *responseStream {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.standalone == nil {
		st := &responseStream{cfg: &sess.h.cfg, sess: sess, canSSE: true, queued: true}
		if sess.h.cfg.store != nil {
			st.id = sess.streamPrefix() + standaloneStreamID
		}
		sess.standalone = st
	}
	return sess.standalone
}

// route picks the stream for a message to the client: the stream of the
// request it relates to, else the GET stream. send is tried on each in
// turn.
func (sess *httpSession) route(ctx context.Context, msg jsonrpc2.Message) error {
	if st := streamFromContext(ctx); st != nil && st.sess == sess {
		err := st.send(msg)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errNoSSE) && !errors.Is(err, errStreamDone) && !errors.Is(err, errDetached) {
			return err
		}
	}
	sess.mu.Lock()
	st, closed := sess.standalone, sess.closed
	sess.mu.Unlock()
	if closed {
		return ErrConnectionClosed
	}
	if st == nil {
		return sess.routeRemote(ctx, msg) // session_router.go: another instance may hold it
	}
	if sess.standaloneMoved(st) && sess.routeRemote(ctx, msg) == nil {
		return nil // session_router.go: the client's GET stream is elsewhere now
	}
	if err := st.send(msg); err != nil {
		return fmt.Errorf("%w: %w", errNoClientStream, err)
	}
	return nil
}

// Call sends a request to the client and waits for the response, which
// arrives in a later POST.
func (sess *httpSession) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return sess.CallWithID(ctx, sess.NewCallID(), method, params)
}

// NewCallID reserves the id of a request to the client, for a caller that
// must know it before making the call with CallWithID.
func (sess *httpSession) NewCallID() jsonrpc2.ID {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.callIDLocked() // session_router.go
}

// CallWithID is Call with an id reserved by NewCallID.
func (sess *httpSession) CallWithID(ctx context.Context, id jsonrpc2.ID, method string, params any) (json.RawMessage, error) {
	jsonrpc2.NoteCallID(ctx, id)
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return nil, ErrConnectionClosed
	}
	ch := make(chan *jsonrpc2.Response, 1)
	if sess.pending == nil {
		sess.pending = make(map[jsonrpc2.ID]chan *jsonrpc2.Response)
	}
	sess.pending[id] = ch
	sess.mu.Unlock()

	req, err := jsonrpc2.NewCall(id, method, params)
	if err == nil {
		err = sess.route(ctx, req)
	}
	if err != nil {
		sess.forget(id)
		return nil, err
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return nil, ErrConnectionClosed
		}
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		if sess.forget(id) {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			if err := sess.Notify(cctx, NotificationCancelled, &CancelledParams{RequestID: id.Raw(), Reason: "request cancelled"}); err != nil {
				sess.h.opts.Logger.Debug("mcp: could not tell the client a request was cancelled", "session", sess.id, "error", err)
			}
			cancel()
		}
		return nil, ctx.Err()
	}
}

// forget drops a pending call, reporting whether it was still pending.
func (sess *httpSession) forget(id jsonrpc2.ID) bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	_, ok := sess.pending[id]
	delete(sess.pending, id)
	return ok
}

// deliver hands a response from the client to the call awaiting it.
func (sess *httpSession) deliver(resp *jsonrpc2.Response) {
	if !sess.deliverLocal(resp) {
		sess.forwardResponse(resp) // session_router.go: another instance may await it
	}
}

// deliverLocal hands a response to the call of this instance awaiting it,
// reporting whether there was one.
func (sess *httpSession) deliverLocal(resp *jsonrpc2.Response) bool {
	sess.mu.Lock()
	ch := sess.pending[resp.ID]
	delete(sess.pending, resp.ID)
	sess.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
	return ch != nil
}

// Notify sends a notification to the client. One that no stream can carry
// is dropped: notifications are hints the client can do without.
func (sess *httpSession) Notify(ctx context.Context, method string, params any) error {
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return err
	}
	err = sess.route(ctx, n)
	if errors.Is(err, errNoClientStream) {
		sess.h.opts.Logger.Debug("mcp: notification dropped: the client has no stream open for it", "session", sess.id, "method", method)
		return nil
	}
	return err
}

// handleNotification handles a notification from the client. Its errors
// have no one to go to: they are logged.
func (sess *httpSession) handleNotification(ctx context.Context, n *jsonrpc2.Request) {
	if _, err := sess.ss.handle(ctx, n); err != nil {
		sess.h.opts.Logger.Debug("mcp: notification handler failed", "session", sess.id, "method", n.Method, "error", err)
	}
}

// CancelIncoming cancels the context of the client's request id.
func (sess *httpSession) CancelIncoming(id jsonrpc2.ID) {
	sess.mu.Lock()
	cancel := sess.incoming[id]
	sess.mu.Unlock()
	if cancel != nil {
		cancel()
	} else {
		sess.forwardCancel(id) // session_router.go: another instance may run it
	}
}

// Close ends the session: requests in progress are cancelled, calls to the
// client fail, streams end, and later requests with its ID get 404.
func (sess *httpSession) Close() error {
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return nil
	}
	sess.closed = true
	incoming, pending, streams := sess.incoming, sess.pending, sess.streams
	standalone := sess.standalone
	sess.incoming, sess.pending, sess.streams, sess.unbounded = nil, nil, nil, nil
	close(sess.done)
	sess.mu.Unlock()

	if sess.timer != nil {
		sess.timer.Stop()
	}
	sess.h.removeSession(sess)
	sess.ss.server.removeSession(sess.ss)
	sess.unsubscribeRoute()
	for _, cancel := range incoming {
		cancel()
	}
	for _, ch := range pending {
		ch <- nil
	}
	for _, st := range streams {
		st.mu.Lock()
		st.detachLocked()
		st.mu.Unlock()
	}
	if standalone != nil {
		standalone.mu.Lock()
		standalone.done = true
		standalone.detachLocked()
		standalone.mu.Unlock()
	}
	if store := sess.h.cfg.store; store != nil && sess.dropsOwnEvents() {
		if err := store.SessionClosed(context.Background(), sess.id); err != nil {
			sess.h.opts.Logger.Warn("mcp: the event store failed to drop a closed session's events", "session", sess.id, "error", err)
		}
	}
	return nil
}

// Wait blocks until the session ends.
func (sess *httpSession) Wait() error {
	<-sess.done
	return nil
}

// Done is closed when the session ends.
func (sess *httpSession) Done() <-chan struct{} { return sess.done }
