package mcp

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// ErrSessionNotFound reports a session id a SessionStore does not hold:
// never created, deleted, or expired.
var ErrSessionNotFound = errors.New("mcp: session not found")

// SessionState is what an instance of a server needs to serve a legacy
// session (protocol 2025-03-26 to 2025-11-25) that another instance
// created: what initialize negotiated, and what the client set since.
type SessionState struct {
	// ProtocolVersion is the negotiated protocol version.
	ProtocolVersion string `json:"protocolVersion"`
	// ClientInfo and ClientCapabilities are what the client sent in
	// initialize.
	ClientInfo         *Implementation     `json:"clientInfo,omitempty"`
	ClientCapabilities *ClientCapabilities `json:"clientCapabilities,omitempty"`
	// LogLevel is the level set with logging/setLevel, if any.
	LogLevel LoggingLevel `json:"logLevel,omitempty"`
	// Subscriptions are the resource URIs subscribed to with
	// resources/subscribe, sorted.
	Subscriptions []string `json:"subscriptions,omitempty"`
	// Owner is who the session belongs to (WithSessionOwner): requests
	// with another owner are refused. Empty for a session created
	// without one.
	Owner string `json:"owner,omitempty"`
}

// A SessionStore keeps the state of legacy sessions where every instance
// of a server can read it, so that a load balancer may send each request
// of a session to any instance. A session lives in the store from its
// initialize until it is deleted (DELETE) or left idle for its TTL.
//
// Implementations must be safe for concurrent use.
type SessionStore interface {
	// Save creates or replaces the state of session id, which expires after
	// ttl without a Load (never, if ttl <= 0).
	Save(ctx context.Context, id string, state *SessionState, ttl time.Duration) error
	// Load returns the state of session id and restarts its ttl, or an
	// error wrapping ErrSessionNotFound.
	Load(ctx context.Context, id string, ttl time.Duration) (*SessionState, error)
	// Delete removes session id; deleting an unknown id is not an error.
	Delete(ctx context.Context, id string) error
}

// A MemorySessionStore is a SessionStore in memory: it joins several
// streamable HTTP handlers of one process, and is the reference for
// other implementations.
type MemorySessionStore struct {
	mu       sync.Mutex
	sessions map[string]memorySession
}

var _ SessionStore = (*MemorySessionStore)(nil)

type memorySession struct {
	data    []byte
	expires time.Time
	ttl     time.Duration
}

// NewMemorySessionStore returns an empty store.
func NewMemorySessionStore() *MemorySessionStore {
	return &MemorySessionStore{sessions: map[string]memorySession{}}
}

// Save stores a copy of state.
func (m *MemorySessionStore) Save(_ context.Context, id string, state *SessionState, ttl time.Duration) error {
	data, err := strictjson.Marshal(state)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	m.sessions[id] = memorySession{data: data, expires: expiry(ttl), ttl: ttl}
	return nil
}

// Load returns a copy of the state of session id.
func (m *MemorySessionStore) Load(_ context.Context, id string, ttl time.Duration) (*SessionState, error) {
	m.mu.Lock()
	e, ok := m.sessions[id]
	if ok && !e.expires.IsZero() && time.Now().After(e.expires) {
		delete(m.sessions, id)
		ok = false
	}
	if ok {
		e.expires, e.ttl = expiry(ttl), ttl
		m.sessions[id] = e
	}
	m.mu.Unlock()
	if !ok {
		return nil, ErrSessionNotFound
	}
	var st SessionState
	if err := strictjson.Unmarshal(e.data, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Delete removes session id.
func (m *MemorySessionStore) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
	return nil
}

// sweepLocked drops expired sessions once the map has grown.
func (m *MemorySessionStore) sweepLocked() {
	if len(m.sessions) < 1024 || len(m.sessions)&1023 != 0 {
		return
	}
	now := time.Now()
	for id, e := range m.sessions {
		if !e.expires.IsZero() && now.After(e.expires) {
			delete(m.sessions, id)
		}
	}
}

func expiry(ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return time.Now().Add(ttl)
}

// maxSessionIDLen bounds the session ids looked up in a SessionStore.
const maxSessionIDLen = 128

// validSessionID reports whether id may name a session in a store: the
// ids the handler issues are base32 text; anything else (separators of
// a store's key space, wildcards, control characters) is refused before
// it reaches the store.
func validSessionID(id string) bool {
	if id == "" || len(id) > maxSessionIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// snapshot returns the shareable state of a legacy session, or nil before
// initialize has been answered.
func (ss *ServerSession) snapshot() *SessionState {
	if !ss.initialized.Load() {
		return nil
	}
	st := &SessionState{}
	ss.mu.Lock()
	st.ProtocolVersion, st.ClientInfo, st.ClientCapabilities = ss.version, ss.clientInfo, ss.clientCaps
	ss.mu.Unlock()
	ss.logging.mu.Lock()
	st.LogLevel = ss.logging.level
	ss.logging.mu.Unlock()
	ss.subs.mu.Lock()
	for uri := range ss.subs.uris {
		st.Subscriptions = append(st.Subscriptions, uri)
	}
	ss.subs.mu.Unlock()
	slices.Sort(st.Subscriptions)
	return st
}

// restore sets a legacy session's state from a store.
func (ss *ServerSession) restore(st *SessionState) {
	ss.era.Store(eraLegacy)
	ss.mu.Lock()
	ss.version, ss.clientInfo, ss.clientCaps = st.ProtocolVersion, st.ClientInfo, st.ClientCapabilities
	ss.batchesOK = st.ProtocolVersion == Version20250326
	ss.mu.Unlock()
	ss.logging.mu.Lock()
	ss.logging.level = st.LogLevel
	ss.logging.mu.Unlock()
	ss.subs.mu.Lock()
	ss.subs.uris = make(map[string]struct{}, len(st.Subscriptions))
	for _, uri := range st.Subscriptions {
		ss.subs.uris[uri] = struct{}{}
	}
	ss.subs.mu.Unlock()
	ss.initialized.Store(true)
}

// sharedSession is what an httpSession keeps when its state is shared
// through a SessionStore.
type sharedSession struct {
	mu     sync.Mutex
	saved  []byte                   // the state as last saved or loaded by this instance
	unsub  func()                   // ends the SessionRouter subscription
	fresh  time.Time                // the copy is trusted until then (session_cache.go)
	echoes map[string]*announcement // announcements awaiting their answers, by nonce (session_cache.go)
}

// shared reports whether the handler shares sessions with other
// instances.
func (h *StreamableHTTPHandler) shared() bool { return h.opts.SessionStore != nil }

// storeTimeout bounds one operation on a SessionStore or SessionRouter.
const storeTimeout = 5 * time.Second

// lookupSession returns the session named by a request's Mcp-Session-Id,
// or nil. With a SessionStore, the store decides: a session it does not
// hold is gone (deleted or expired on another instance), and one this
// instance has not seen yet is adopted from the stored state. A session
// whose owner is not the request's (WithSessionOwner) is nil too.
func (h *StreamableHTTPHandler) lookupSession(r *http.Request, sid string) *httpSession {
	sess := h.session(sid)
	owner := SessionOwnerFromContext(r.Context())
	if sess != nil && sess.owner != owner {
		return nil
	}
	store := h.opts.SessionStore
	if store == nil {
		return sess
	}
	if !validSessionID(sid) {
		return nil
	}
	if sess != nil && sess.cached() { // session_cache.go
		return sess
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	st, err := store.Load(ctx, sid, h.opts.SessionTimeout)
	switch {
	case errors.Is(err, ErrSessionNotFound):
		if sess != nil {
			sess.Close() // deleted, or expired, elsewhere
		}
		return nil
	case err != nil:
		// The store is unreachable: sessions this instance holds go on.
		h.opts.Logger.Warn("mcp: loading a session from the store failed", "session", sid, "error", err)
		return sess
	}
	if st.Owner != owner {
		return nil
	}
	data, _ := strictjson.Marshal(st)
	if sess != nil {
		sess.shared.mu.Lock()
		if !bytes.Equal(data, sess.shared.saved) { // changed by another instance
			sess.ss.restore(st)
			sess.shared.saved = data
		}
		sess.markFreshLocked()
		sess.shared.mu.Unlock()
		return sess
	}
	return h.adoptSession(r, sid, st, data)
}

// adoptSession creates the local copy of a session another instance
// created.
func (h *StreamableHTTPHandler) adoptSession(r *http.Request, sid string, st *SessionState, data []byte) *httpSession {
	s := h.getServer(r)
	if s == nil {
		return nil
	}
	sess := h.newHTTPSession(s)
	sess.id = sid
	sess.owner = st.Owner
	sess.ss.restore(st)
	sess.ss.changeMark = s.changeMark()
	sess.shared.saved = data
	sess.markFreshLocked() // not shared with anyone yet
	existing, err := h.addAdopted(sess)
	if existing != nil {
		return existing // adopted meanwhile by a concurrent request
	}
	if errors.Is(err, errTooManySessions) && h.sweep() > 0 {
		existing, err = h.addAdopted(sess)
		if existing != nil {
			return existing
		}
	}
	if err != nil {
		h.opts.Logger.Warn("mcp: cannot serve a session of another instance", "session", sid, "error", err)
		return nil
	}
	sess.startExpiry(h.opts.SessionTimeout)
	sess.subscribeRoute()
	s.addSession(sess.ss)
	return sess
}

// addAdopted registers an adopted session unless the handler holds one
// with its id already, which it returns.
func (h *StreamableHTTPHandler) addAdopted(sess *httpSession) (*httpSession, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.sessions[sess.id] != nil:
		return h.sessions[sess.id], nil
	case h.closing.Load():
		return nil, errShuttingDown
	case h.opts.MaxSessions > 0 && len(h.sessions) >= h.opts.MaxSessions:
		return nil, errTooManySessions
	}
	h.sessions[sess.id] = sess
	return nil, nil
}

// changesSharedState holds the methods whose handlers write what
// snapshot reads (initialization, the log level, resource subscriptions): only
// they can change a session's shared state, so no other request encodes
// it to find out.
var changesSharedState = map[string]bool{
	MethodInitialize:      true,
	MethodSetLoggingLevel: true,
	MethodSubscribe:       true,
	MethodUnsubscribe:     true,
}

// syncShared saves the session's state to the store if it changed while
// serving req, before the response goes out, so that the client's next
// request finds it on any instance. A new session that cannot be saved
// fails its initialize: no other instance could serve it.
func (sess *httpSession) syncShared(req *jsonrpc2.Request, res any, err error) (any, error) {
	if err != nil || !changesSharedState[req.Method] {
		return res, err
	}
	if serr := sess.saveShared(); serr != nil && req.Method == MethodInitialize {
		return nil, newError(CodeInternalError, "the session could not be stored: %v", serr)
	}
	return res, err
}

// saveShared saves the session's state to the store if it changed since
// this instance last saved or loaded it. A failure is logged and
// returned: other instances may then serve the session with stale state.
func (sess *httpSession) saveShared() error {
	store := sess.h.opts.SessionStore
	if store == nil {
		return nil
	}
	st := sess.ss.snapshot()
	if st == nil {
		return nil
	}
	st.Owner = sess.owner
	data, err := strictjson.Marshal(st)
	if err != nil {
		return err
	}
	sess.shared.mu.Lock()
	if bytes.Equal(data, sess.shared.saved) {
		sess.shared.mu.Unlock()
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := store.Save(ctx, sess.id, st, sess.h.opts.SessionTimeout); err != nil {
		sess.shared.mu.Unlock()
		sess.h.opts.Logger.Warn("mcp: saving a session's state failed: other instances may serve it with stale state", "session", sess.id, "error", err)
		return err
	}
	created := sess.shared.saved == nil
	sess.shared.saved = data
	sess.markFreshLocked()
	sess.shared.mu.Unlock()
	if created {
		sess.subscribeRoute() // a session created here
	} else {
		sess.announce(ctx, RouteState) // session_cache.go
	}
	return nil
}

// forgetShared removes a session the client deleted from the store, the
// event store and every instance.
func (sess *httpSession) forgetShared(ctx context.Context) {
	h := sess.h
	if !h.shared() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if err := h.opts.SessionStore.Delete(ctx, sess.id); err != nil {
		h.opts.Logger.Warn("mcp: deleting a session from the store failed", "session", sess.id, "error", err)
	}
	sess.announce(ctx, RouteClose) // session_cache.go: answered once every instance has dropped it
	if store := h.cfg.store; store != nil {
		if err := store.SessionClosed(ctx, sess.id); err != nil {
			h.opts.Logger.Warn("mcp: the event store failed to drop a closed session's events", "session", sess.id, "error", err)
		}
	}
}

// dropsOwnEvents reports whether closing the local session drops its
// events from the event store: not when the session is shared, since
// other instances may still serve it (a DELETE drops them: forgetShared).
func (sess *httpSession) dropsOwnEvents() bool { return !sess.h.shared() }
