package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Kinds of SessionMessage.
const (
	// RouteToClient carries a message for the client (Data: one JSON-RPC
	// message) to the instance holding the session's GET stream.
	RouteToClient = "to_client"
	// RouteResponse carries the client's response to a server-to-client
	// request (Data: the JSON-RPC response) to the instance that sent the
	// request.
	RouteResponse = "response"
	// RouteCancel carries the client's cancellation of one of its requests
	// (Data: the request id) to the instance serving it.
	RouteCancel = "cancel"
	// RouteClose tells every instance that the session was deleted.
	RouteClose = "close"
	// RouteState tells every instance that the session's state changed in
	// the SessionStore, so that it reads it again before serving the
	// session.
	RouteState = "state"
	// RouteAck acknowledges a RouteState or RouteClose (Data: the nonce
	// the announcement carried) once the receiving instance has acted on
	// it: marked its copy of the session stale, or dropped the session.
	// The announcing instance answers its client after every instance
	// the announcement reached has acknowledged it (CountingSessionRouter).
	RouteAck = "ack"
)

// A SessionMessage is what one instance of a server sends the others about
// a legacy session through a SessionRouter.
type SessionMessage struct {
	// Kind is one of the Route* constants.
	Kind string `json:"kind"`
	// Origin identifies the sending instance, which ignores its own
	// messages.
	Origin string `json:"origin,omitempty"`
	// Data is the JSON-RPC message, or request id, the kind calls for.
	Data json.RawMessage `json:"data,omitempty"`
}

// A SessionRouter carries messages between the instances that serve one
// legacy session (protocol 2025-03-26 to 2025-11-25) behind a load
// balancer: a server-to-client request made by a handler on one instance
// goes out on the GET stream another instance holds, and the client's
// answer, POSTed to any instance, reaches the handler waiting for it;
// cancellations likewise. Delivery is at most once: a lost message is a
// server-to-client request that times out, as on a broken connection.
//
// Implementations must be safe for concurrent use and must call each
// subscriber's function from one goroutine at a time.
type SessionRouter interface {
	// Publish sends m to the subscribers of session id, the sender
	// included.
	Publish(ctx context.Context, sessionID string, m *SessionMessage) error
	// Subscribe calls fn for each message published for session id after
	// Subscribe returns, until unsubscribe is called (which may be called
	// more than once).
	Subscribe(ctx context.Context, sessionID string, fn func(*SessionMessage)) (unsubscribe func(), err error)
}

// A CountingSessionRouter is a SessionRouter that also tells how many
// subscriptions a message reached. With one, an instance that announces a
// change of a shared session (RouteState) or its end (RouteClose) answers
// the client's request only after every subscription the announcement
// reached has acknowledged it (RouteAck), or after a bounded wait (500 ms):
// the client's next request, whichever instance it reaches, then sees the
// change. With a plain SessionRouter the request is answered once the
// announcement came back to the announcing instance itself, and another
// instance may still serve the session's old state for as long as it
// takes to handle the announcement.
type CountingSessionRouter interface {
	SessionRouter
	// PublishCount is Publish that also reports how many subscriptions of
	// session id, the sender's own included, m was delivered to: each
	// of them calls its function with m unless it unsubscribes first.
	PublishCount(ctx context.Context, sessionID string, m *SessionMessage) (int, error)
}

// A MemorySessionRouter is a SessionRouter inside one process. Each
// subscriber gets its messages in order on a goroutine of its own, which
// runs only while messages wait.
type MemorySessionRouter struct {
	mu   sync.Mutex
	next int
	subs map[string]map[int]*serialQueue[*SessionMessage]
}

var (
	_ SessionRouter         = (*MemorySessionRouter)(nil)
	_ CountingSessionRouter = (*MemorySessionRouter)(nil)
)

// NewMemorySessionRouter returns a router with no subscribers.
func NewMemorySessionRouter() *MemorySessionRouter {
	return &MemorySessionRouter{subs: map[string]map[int]*serialQueue[*SessionMessage]{}}
}

// Publish queues a copy of m for the session's subscribers.
func (r *MemorySessionRouter) Publish(ctx context.Context, sessionID string, m *SessionMessage) error {
	_, err := r.PublishCount(ctx, sessionID, m)
	return err
}

// PublishCount queues a copy of m for the session's subscribers and
// reports how many there are.
func (r *MemorySessionRouter) PublishCount(_ context.Context, sessionID string, m *SessionMessage) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.subs[sessionID] {
		c := *m
		c.Data = slices.Clone(m.Data)
		q.push(&c)
	}
	return len(r.subs[sessionID]), nil
}

// Subscribe adds fn to the session's subscribers.
func (r *MemorySessionRouter) Subscribe(_ context.Context, sessionID string, fn func(*SessionMessage)) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	id := r.next
	if r.subs[sessionID] == nil {
		r.subs[sessionID] = map[int]*serialQueue[*SessionMessage]{}
	}
	q := &serialQueue[*SessionMessage]{fn: fn}
	r.subs[sessionID][id] = q
	return func() {
		r.mu.Lock()
		delete(r.subs[sessionID], id)
		if len(r.subs[sessionID]) == 0 {
			delete(r.subs, sessionID)
		}
		r.mu.Unlock()
		q.close()
	}, nil
}

// instanceID returns the handler's instance id, which prefixes the ids of
// its streams and server-to-client requests in shared sessions so that
// they never collide with another instance's.
func (h *StreamableHTTPHandler) instanceID() string {
	h.instanceOnce.Do(func() { h.instance = strings.ToLower(rand.Text()[:10]) })
	return h.instance
}

// streamPrefix is prepended to stream ids: empty unless sessions are
// shared.
func (sess *httpSession) streamPrefix() string {
	if !sess.h.shared() {
		return ""
	}
	return sess.h.instanceID() + "."
}

// callIDLocked returns the id of the next server-to-client request.
// sess.mu is held.
func (sess *httpSession) callIDLocked() jsonrpc2.ID {
	sess.nextCall++
	if !sess.h.shared() {
		return jsonrpc2.Int64ID(sess.nextCall)
	}
	return jsonrpc2.StringID(fmt.Sprintf("%s.%d", sess.h.instanceID(), sess.nextCall))
}

// subscribeRoute starts receiving the session's routed messages.
func (sess *httpSession) subscribeRoute() {
	r := sess.h.opts.SessionRouter
	sess.shared.mu.Lock()
	subscribed := sess.shared.unsub != nil
	sess.shared.mu.Unlock()
	if r == nil || subscribed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	unsub, err := r.Subscribe(ctx, sess.id, sess.onRouted)
	if err != nil {
		sess.h.opts.Logger.Warn("mcp: subscribing to a session's routed messages failed", "session", sess.id, "error", err)
		return
	}
	sess.shared.mu.Lock()
	if sess.shared.unsub == nil {
		sess.shared.unsub, unsub = unsub, nil
	}
	sess.shared.mu.Unlock()
	if unsub != nil { // subscribed meanwhile by a concurrent request
		unsub()
	}
}

// unsubscribeRoute stops receiving the session's routed messages.
func (sess *httpSession) unsubscribeRoute() {
	sess.shared.mu.Lock()
	unsub := sess.shared.unsub
	sess.shared.unsub = nil
	sess.shared.mu.Unlock()
	if unsub != nil {
		unsub()
	}
}

// publishRoute sends m to the other instances serving the session.
func (sess *httpSession) publishRoute(ctx context.Context, m *SessionMessage) error {
	r := sess.h.opts.SessionRouter
	if r == nil {
		return errNoRouter
	}
	m.Origin = sess.h.instanceID()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if err := r.Publish(ctx, sess.id, m); err != nil {
		sess.h.opts.Logger.Warn("mcp: routing a session message failed", "session", sess.id, "kind", m.Kind, "error", err)
		return err
	}
	return nil
}

// publishCounted is publishRoute on a CountingSessionRouter: it reports
// how many subscriptions m reached.
func (sess *httpSession) publishCounted(ctx context.Context, r CountingSessionRouter, m *SessionMessage) (int, error) {
	m.Origin = sess.h.instanceID()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	n, err := r.PublishCount(ctx, sess.id, m)
	if err != nil {
		sess.h.opts.Logger.Warn("mcp: routing a session message failed", "session", sess.id, "kind", m.Kind, "error", err)
		return 0, err
	}
	return n, nil
}

var errNoRouter = errors.New("mcp: no session router")

// routeRemote sends a message for the client, which no stream of this
// instance can carry, to the instance holding the GET stream. Only
// requests, and messages related to a request served here, are routed:
// broadcasts (list changes, resource updates) reach every instance
// anyway, and the one holding the GET stream delivers them.
func (sess *httpSession) routeRemote(ctx context.Context, msg jsonrpc2.Message) error {
	if sess.h.opts.SessionRouter == nil {
		return errNoClientStream
	}
	req, isReq := msg.(*jsonrpc2.Request)
	related := streamFromContext(ctx) != nil && streamFromContext(ctx).sess == sess
	if !(isReq && !req.IsNotification()) && !related {
		return errNoClientStream
	}
	data, err := jsonrpc2.Encode(msg)
	if err != nil {
		return err
	}
	return sess.publishRoute(ctx, &SessionMessage{Kind: RouteToClient, Data: data})
}

// standaloneMoved reports whether the client left this instance's GET
// stream st of a shared session and another instance may hold its GET
// stream now: a request from a handler here then goes there, not into
// this stream's stored events.
func (sess *httpSession) standaloneMoved(st *responseStream) bool {
	if sess.h.opts.SessionRouter == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return !st.attachedLocked()
}

// forwardResponse routes a response from the client that no call of this
// instance awaits to the instance that made the call.
func (sess *httpSession) forwardResponse(resp *jsonrpc2.Response) {
	if sess.h.opts.SessionRouter == nil {
		return
	}
	data, err := jsonrpc2.Encode(resp)
	if err == nil {
		_ = sess.publishRoute(context.Background(), &SessionMessage{Kind: RouteResponse, Data: data}) // a failure is logged there
	}
}

// forwardCancel routes the client's cancellation of a request that is not
// running here to the instance running it.
func (sess *httpSession) forwardCancel(id jsonrpc2.ID) {
	if sess.h.opts.SessionRouter == nil {
		return
	}
	data, err := id.MarshalJSON()
	if err == nil {
		_ = sess.publishRoute(context.Background(), &SessionMessage{Kind: RouteCancel, Data: data}) // a failure is logged there
	}
}

// onRouted handles a message another instance routed to this session.
func (sess *httpSession) onRouted(m *SessionMessage) {
	if m.Origin == sess.h.instanceID() {
		sess.onEcho(m) // session_cache.go
		return
	}
	switch m.Kind {
	case RouteState:
		sess.onStateChanged() // session_cache.go
		sess.acknowledge(m)
	case RouteAck:
		sess.onAck(m.Data) // session_cache.go
	case RouteToClient:
		msg, err := jsonrpc2.Decode(m.Data)
		if err != nil {
			return
		}
		sess.mu.Lock()
		st := sess.standalone
		sess.mu.Unlock()
		if st == nil {
			return
		}
		st.mu.Lock()
		attached := st.attachedLocked()
		st.mu.Unlock()
		if attached {
			// A failed write detaches the stream (and is logged); the
			// instance that routed a request then sees no answer, as from
			// a client that left.
			_ = st.send(msg)
		}
	case RouteResponse:
		msg, err := jsonrpc2.Decode(m.Data)
		if resp, ok := msg.(*jsonrpc2.Response); err == nil && ok {
			sess.deliverLocal(resp)
		}
	case RouteCancel:
		var id jsonrpc2.ID
		if id.UnmarshalJSON(m.Data) == nil {
			sess.mu.Lock()
			cancel := sess.incoming[id]
			sess.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
	case RouteClose:
		sess.Close()
		sess.acknowledge(m)
	}
}

// acknowledge tells the instance that announced m (RouteState or
// RouteClose) that this one has acted on it.
func (sess *httpSession) acknowledge(m *SessionMessage) {
	if len(m.Data) == 0 { // an announcement that expects no answer
		return
	}
	_ = sess.publishRoute(context.Background(), &SessionMessage{Kind: RouteAck, Data: m.Data}) // a failure is logged there
}
