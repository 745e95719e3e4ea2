package redis

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

var errClosed = errors.New("mcp/redis: backend closed")

// An EventBus is an mcp.EventBus on one Redis pub/sub channel
// (KeyPrefix + "events"), sharded on a Redis Cluster (SSUBSCRIBE,
// SPUBLISH), so that every event goes through the node serving the
// channel's slot and subscribers get them in publishing order (a plain
// PUBLISH goes to any node). Delivery is at most once.
type EventBus struct{ b *Backend }

// EventBus returns the backend's event bus.
func (b *Backend) EventBus() *EventBus { return &EventBus{b} }

var _ mcp.EventBus = (*EventBus)(nil)

// Publish sends e to every subscribed instance; it fails when Redis is
// unreachable.
func (e *EventBus) Publish(ctx context.Context, ev *mcp.BusEvent) error {
	data, err := strictjson.Marshal(ev)
	if err != nil {
		return err
	}
	if err := e.b.hub.publish(ctx, e.b.key("events"), data); err != nil {
		return fmt.Errorf("mcp/redis: publishing event: %w", err)
	}
	return nil
}

// Subscribe calls fn for each event published from now on.
func (e *EventBus) Subscribe(ctx context.Context, fn func(*mcp.BusEvent)) (func(), error) {
	return e.b.hub.subscribe(ctx, e.b.key("events"), func(p []byte) {
		var ev mcp.BusEvent
		if err := strictjson.Unmarshal(p, &ev); err != nil {
			e.b.opts.Logger.Warn("mcp/redis: dropped a malformed bus event", "error", err)
			return
		}
		fn(&ev)
	})
}

// A SessionRouter is an mcp.SessionRouter on one Redis pub/sub channel
// per session (KeyPrefix + "route:" + session id). On a Redis Cluster (a
// *goredis.ClusterClient) the channels are sharded (SSUBSCRIBE,
// SPUBLISH: KeyPrefix + "route:{rN}:" + session id, N from 0 to 15 by a
// hash of the id), so that a message goes to the node serving the
// channel's slot only, not to every node, and each Backend holds one
// connection per shard in use. Delivery is at most once. It counts the
// subscriptions a message reached (mcp.CountingSessionRouter) from the
// number of subscribers Redis reports: each subscription of this Backend,
// and one for each other Backend subscribed to the session (a Backend
// shared by several handlers counts once there).
type SessionRouter struct{ b *Backend }

// SessionRouter returns the backend's session router.
func (b *Backend) SessionRouter() *SessionRouter { return &SessionRouter{b} }

var (
	_ mcp.SessionRouter         = (*SessionRouter)(nil)
	_ mcp.CountingSessionRouter = (*SessionRouter)(nil)
)

// Publish sends m to the instances serving the session.
func (r *SessionRouter) Publish(ctx context.Context, sessionID string, m *mcp.SessionMessage) error {
	_, err := r.PublishCount(ctx, sessionID, m)
	return err
}

// PublishCount sends m to the instances serving the session and reports
// how many subscriptions it reached.
func (r *SessionRouter) PublishCount(ctx context.Context, sessionID string, m *mcp.SessionMessage) (int, error) {
	if !validID(sessionID) {
		return 0, errBadID
	}
	data, err := strictjson.Marshal(m)
	if err != nil {
		return 0, err
	}
	h, channel := r.route(sessionID)
	n, err := h.publishCount(ctx, channel, data)
	if err != nil {
		return 0, fmt.Errorf("mcp/redis: routing a session message: %w", err)
	}
	return n, nil
}

// Subscribe calls fn for each message published for the session from now
// on.
func (r *SessionRouter) Subscribe(ctx context.Context, sessionID string, fn func(*mcp.SessionMessage)) (func(), error) {
	if !validID(sessionID) {
		return nil, errBadID
	}
	h, channel := r.route(sessionID)
	return h.subscribe(ctx, channel, func(p []byte) {
		var m mcp.SessionMessage
		if err := strictjson.Unmarshal(p, &m); err != nil {
			r.b.opts.Logger.Warn("mcp/redis: dropped a malformed session message", "error", err)
			return
		}
		fn(&m)
	})
}

// routeShards is the number of sharded hubs of a router on a Redis
// Cluster: each is one pub/sub connection, to the node serving its slot.
const routeShards = 16

// route returns the hub and the channel of a session's messages.
func (r *SessionRouter) route(sessionID string) (*hub, string) {
	if r.b.routes == nil {
		return r.b.hub, r.b.key("route", sessionID)
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(sessionID))
	i := int(h.Sum32() % routeShards)
	return r.b.routes[i], r.b.key("route", "{r"+strconv.Itoa(i)+"}", sessionID)
}
