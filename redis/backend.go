// Package redis implements, on Redis, the interfaces through which several
// instances of an MCP server behind a load balancer share state: the
// event bus and the session router on pub/sub, the resumable event store
// on Redis Streams, and the session and task stores on hashes with a TTL;
// for servers that accept DPoP-bound tokens, the replay cache of the auth
// module's DPoP options (Backend.DPoPReplayCache); and for the Events
// extension (ext/events), the log of event occurrences whose cursors
// resume on every instance (Backend.EventLog, an events.Log on Redis
// Streams, for events.ServerOptions.Log) and the registry of webhook
// subscriptions, their endpoint verifications and delivery claims
// (Backend.WebhookRegistry, a webhook.Registry for
// webhook.ServiceOptions.Registry).
//
// One Backend per process, on one go-redis client, serves all of them:
//
//	b := redis.New(goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:6379"}), nil)
//	defer b.Close()
//	server := mcp.NewServer("app", "v1", &mcp.ServerOptions{
//		EventBus:        b.EventBus(),
//		RequestStateKey: sharedKey,
//		Tasks:           &mcp.TaskOptions{Store: b.TaskStore()},
//	})
//	handler := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
//		SessionStore:  b.SessionStore(),
//		SessionRouter: b.SessionRouter(),
//		EventStore:    b.EventStore(),
//	})
//	es := events.NewServer(server, &events.ServerOptions{
//		Log:      b.EventLog(nil), // closed by b.Close
//		Webhooks: webhook.NewService(&webhook.ServiceOptions{Registry: b.WebhookRegistry()}),
//	})
//
// The client may be a Redis Cluster's (*goredis.ClusterClient: every
// multi-key command stays in one hash slot, and pub/sub is sharded) or a Sentinel-managed Redis's (goredis.NewFailoverClient).
//
// Pub/sub delivery is at most once, as the protocol allows for what it
// carries: list changes and resource updates are hints (clients re-fetch
// lists), task status is also in the task store, and a lost routed
// message is a server-to-client request that times out, as on a broken
// connection. When Redis is unreachable, publishing fails with an error,
// each instance keeps serving its own clients, and subscriptions are made
// again when Redis is back.
package redis

import (
	"errors"
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Defaults of Options.
const (
	DefaultKeyPrefix          = "mcp:"
	DefaultMaxEventsPerStream = 1000
	DefaultEventTTL           = time.Hour
	DefaultMaxMessageBytes    = 4 << 20
	DefaultMaxWaiters         = 8
)

// Options configure a Backend. Nil means defaults.
type Options struct {
	// KeyPrefix starts every key and channel name the backend uses
	// (default DefaultKeyPrefix), so that several applications can share
	// one Redis.
	KeyPrefix string
	// MaxEventsPerStream bounds the events kept per SSE stream (default
	// DefaultMaxEventsPerStream); older ones are trimmed, approximately,
	// and a client resuming from before them gets an error.
	MaxEventsPerStream int64
	// EventTTL is how long a session's events are kept after the last one
	// was stored (default DefaultEventTTL).
	EventTTL time.Duration
	// MaxMessageBytes bounds a message read from a channel or a store
	// entry (default DefaultMaxMessageBytes); larger ones are dropped.
	MaxMessageBytes int
	// MaxWaiters bounds the waits for events (EventStore.WaitEvents) in
	// progress at once, each of which holds a connection of the client's
	// pool in a blocking read (default DefaultMaxWaiters); keep it well
	// below the pool's size.
	MaxWaiters int
	// Logger receives what cannot be returned: dropped messages, lost
	// subscriptions, events that could not be stored (default
	// slog.Default()).
	Logger *slog.Logger
}

// A Backend is the Redis implementation of the mcp interfaces shared by
// the instances of a server. It is safe for concurrent use.
type Backend struct {
	client  goredis.UniversalClient
	opts    Options
	hub     *hub
	routes  []*hub        // on a Redis Cluster: the router's sharded hubs, one per route shard (bus.go)
	events  *eventQueue   // events waiting to be written (event_queue.go)
	waiters chan struct{} // a token per wait for events in progress

	mu     sync.Mutex
	logs   map[*EventLog]struct{} // the EventLogs handed out and not closed yet, which Close closes
	closed bool
}

// New returns a backend using client, which the caller keeps ownership of
// (Close does not close it).
func New(client goredis.UniversalClient, opts *Options) *Backend {
	b := &Backend{client: client}
	if opts != nil {
		b.opts = *opts
	}
	o := &b.opts
	if o.KeyPrefix == "" {
		o.KeyPrefix = DefaultKeyPrefix
	}
	if o.MaxEventsPerStream <= 0 {
		o.MaxEventsPerStream = DefaultMaxEventsPerStream
	}
	if o.EventTTL <= 0 {
		o.EventTTL = DefaultEventTTL
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.MaxWaiters <= 0 {
		o.MaxWaiters = DefaultMaxWaiters
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	b.hub = newHub(client, o.Logger, o.MaxMessageBytes)
	if _, ok := client.(*goredis.ClusterClient); ok {
		// Sharded pub/sub on a cluster: a plain PUBLISH goes to any node,
		// and two of them reach a subscriber in either order.
		b.hub.sharded = true
		b.routes = make([]*hub, routeShards)
		for i := range b.routes {
			b.routes[i] = newHub(client, o.Logger, o.MaxMessageBytes)
			b.routes[i].sharded = true
		}
	}
	b.events = newEventQueue(b)
	b.waiters = make(chan struct{}, o.MaxWaiters)
	return b
}

// Close writes the events still queued and ends the backend's pub/sub
// connection; its subscriptions get nothing more. It also closes the
// EventLogs the backend handed out (EventLog.Close), and those it hands
// out later are closed already: their Append and Read go on working, on
// the client, which the caller owns.
func (b *Backend) Close() error {
	b.mu.Lock()
	b.closed = true
	logs := make([]*EventLog, 0, len(b.logs))
	for l := range b.logs {
		logs = append(logs, l)
	}
	b.mu.Unlock()
	b.events.sync()
	var errs []error
	for _, l := range logs {
		errs = append(errs, l.Close())
	}
	errs = append(errs, b.hub.close())
	for _, h := range b.routes {
		errs = append(errs, h.close())
	}
	return errors.Join(errs...)
}

// addLog records l as handed out, for Close to close; it reports false,
// recording nothing, once the backend is closed.
func (b *Backend) addLog(l *EventLog) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	if b.logs == nil {
		b.logs = map[*EventLog]struct{}{}
	}
	b.logs[l] = struct{}{}
	return true
}

// forgetLog removes l, closed, from the EventLogs Close closes.
func (b *Backend) forgetLog(l *EventLog) {
	b.mu.Lock()
	delete(b.logs, l)
	b.mu.Unlock()
}

// key returns the name of a key or channel.
func (b *Backend) key(parts ...string) string {
	n := len(b.opts.KeyPrefix)
	for _, p := range parts {
		n += len(p) + 1
	}
	buf := make([]byte, 0, n)
	buf = append(buf, b.opts.KeyPrefix...)
	for i, p := range parts {
		if i > 0 {
			buf = append(buf, ':')
		}
		buf = append(buf, p...)
	}
	return string(buf)
}

// errBadID reports an id that cannot name a key: only letters, digits,
// '-', '_' and '.' are allowed, up to 128 bytes, so that no id reaches
// another part of the key space.
var errBadID = errors.New("mcp/redis: invalid id")

func validID(id string) bool {
	if id == "" || len(id) > 128 {
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
