package redis

import (
	"context"
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// subscribeWait bounds how long Subscribe waits for Redis to confirm a
// new channel subscription. If Redis is unreachable the subscription is
// kept and made when it is back.
const subscribeWait = 2 * time.Second

// opTimeout bounds a pub/sub command made without a caller's context.
const opTimeout = 5 * time.Second

// A hub multiplexes the backend's channel subscriptions over one pub/sub
// connection, which go-redis re-establishes (resubscribing) after Redis
// restarts. A sharded hub uses sharded pub/sub (SSUBSCRIBE, SPUBLISH),
// whose channels must all hash to one slot of a Redis Cluster: its
// connection is to the node serving that slot.
type hub struct {
	client   goredis.UniversalClient
	logger   *slog.Logger
	maxBytes int
	sharded  bool

	mu        sync.Mutex
	ps        *goredis.PubSub
	closed    bool
	next      int
	subs      map[string]map[int]*queue // by channel
	confirmed map[string]chan struct{}  // closed once Redis confirmed the channel
	renewing  bool                      // a sharded hub is making its subscriptions again (renew)
	done      chan struct{}             // closed when the reader ends
}

func newHub(client goredis.UniversalClient, logger *slog.Logger, maxBytes int) *hub {
	return &hub{client: client, logger: logger, maxBytes: maxBytes,
		subs: map[string]map[int]*queue{}, confirmed: map[string]chan struct{}{}}
}

// subscribe calls fn with the payload of each message published on
// channel from now on.
func (h *hub) subscribe(ctx context.Context, channel string, fn func([]byte)) (func(), error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errClosed
	}
	h.next++
	id := h.next
	q := &queue{fn: fn}
	first := h.subs[channel] == nil
	if first {
		h.subs[channel] = map[int]*queue{}
		h.confirmed[channel] = make(chan struct{})
	}
	h.subs[channel][id] = q
	conf := h.confirmed[channel]
	var err error
	switch {
	case h.ps == nil:
		h.ps = h.open(ctx, channel)
		h.done = make(chan struct{})
		go h.read(h.ps, h.done)
	case first && h.sharded:
		err = h.ps.SSubscribe(ctx, channel)
	case first:
		err = h.ps.Subscribe(ctx, channel)
	}
	h.mu.Unlock()
	if err != nil {
		h.logger.Warn("mcp/redis: subscribing failed; it is retried when Redis is reachable", "channel", channel, "error", err)
	}
	wait := time.NewTimer(subscribeWait)
	defer wait.Stop()
	select {
	case <-conf:
	case <-ctx.Done():
	case <-wait.C:
		// Redis is unreachable, slow, or refused the subscription (an ACL
		// without the channel): said once here, as nothing else will.
		h.logger.Warn("mcp/redis: Redis has not confirmed a subscription; events published until it does are missed", "channel", channel, "waited", subscribeWait)
	}
	var once sync.Once
	return func() { once.Do(func() { h.unsubscribe(channel, id, q) }) }, nil
}

func (h *hub) unsubscribe(channel string, id int, q *queue) {
	q.close()
	h.mu.Lock()
	delete(h.subs[channel], id)
	last := len(h.subs[channel]) == 0
	if last {
		delete(h.subs, channel)
		delete(h.confirmed, channel)
	}
	ps := h.ps
	h.mu.Unlock()
	if last && ps != nil {
		ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		defer cancel()
		// Fails only if Redis is gone, which ends the subscription anyway.
		if h.sharded {
			_ = ps.SUnsubscribe(ctx, channel)
		} else {
			_ = ps.Unsubscribe(ctx, channel)
		}
	}
}

// open returns a new pub/sub connection subscribed to channels.
func (h *hub) open(ctx context.Context, channels ...string) *goredis.PubSub {
	if h.sharded {
		return h.client.SSubscribe(ctx, channels...)
	}
	return h.client.Subscribe(ctx, channels...)
}

// renew replaces a sharded hub's connection by one to the node that
// serves its slot now: Redis ends the sharded subscriptions of a slot
// that moved to another node (resharding, or a replica promoted), and
// go-redis would otherwise stay connected to the old node.
func (h *hub) renew(channel string) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if cc, ok := h.client.(*goredis.ClusterClient); ok {
		awaitSlotOwner(ctx, cc, channel) // every channel of the hub is in its slot
	}
	h.mu.Lock()
	h.renewing = false
	if h.closed || h.ps == nil {
		h.mu.Unlock()
		return
	}
	channels := make([]string, 0, len(h.subs))
	for c := range h.subs {
		channels = append(channels, c)
	}
	old, oldDone := h.ps, h.done
	h.ps = h.open(ctx, channels...)
	h.done = make(chan struct{})
	go h.read(h.ps, h.done)
	h.mu.Unlock()
	_ = old.Close()
	<-oldDone
}

// awaitSlotOwner waits, until ctx ends, until cc routes key to the
// primary the cluster says serves its slot: go-redis reloads its view of
// the cluster in the background, and a sharded subscription made on a
// stale view goes to the slot's former node, which refuses it.
func awaitSlotOwner(ctx context.Context, cc *goredis.ClusterClient, key string) {
	slot, err := cc.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		return
	}
	for {
		cc.ReloadState(ctx)
		owner := ""
		//lint:ignore SA1019 CLUSTER SHARDS, its replacement, needs Redis 7; CLUSTER SLOTS answers on every version the backend supports
		if ranges, err := cc.ClusterSlots(ctx).Result(); err == nil {
			for _, r := range ranges {
				if int64(r.Start) <= slot && slot <= int64(r.End) && len(r.Nodes) > 0 {
					owner = r.Nodes[0].Addr
				}
			}
		}
		if m, err := cc.MasterForKey(ctx, key); err == nil && owner != "" && m.Options().Addr == owner {
			return
		}
		t := time.NewTimer(50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// read delivers the messages of ps until it is closed.
func (h *hub) read(ps *goredis.PubSub, done chan struct{}) {
	defer close(done)
	for m := range ps.ChannelWithSubscriptions() {
		switch m := m.(type) {
		case *goredis.Subscription:
			if m.Kind == "sunsubscribe" {
				h.mu.Lock()
				wanted := h.subs[m.Channel] != nil && h.ps == ps && !h.renewing
				if wanted {
					h.renewing = true
				}
				h.mu.Unlock()
				if wanted { // not asked for: the slot moved
					h.logger.Warn("mcp/redis: Redis ended a sharded subscription (the slot moved); subscribing again", "channel", m.Channel)
					go h.renew(m.Channel)
				}
			}
			if m.Kind == "subscribe" || m.Kind == "ssubscribe" {
				h.mu.Lock()
				if c := h.confirmed[m.Channel]; c != nil {
					select {
					case <-c:
					default:
						close(c)
					}
				}
				h.mu.Unlock()
			}
		case *goredis.Message:
			if len(m.Payload) > h.maxBytes {
				h.logger.Warn("mcp/redis: dropped an oversized message", "channel", m.Channel, "bytes", len(m.Payload))
				continue
			}
			h.mu.Lock()
			for _, q := range h.subs[m.Channel] {
				q.push([]byte(m.Payload))
			}
			h.mu.Unlock()
		}
	}
}

// publish sends payload on channel.
func (h *hub) publish(ctx context.Context, channel string, payload []byte) error {
	_, err := h.send(ctx, channel, payload)
	return err
}

// send publishes payload on channel and returns the number of
// subscribers Redis reports: with plain pub/sub on a Redis Cluster, those
// connected to the node it was sent to only; with sharded pub/sub, every
// subscriber of the channel (connected to the slot's primary).
func (h *hub) send(ctx context.Context, channel string, payload []byte) (int64, error) {
	if h.sharded {
		return h.client.SPublish(ctx, channel, payload).Result()
	}
	return h.client.Publish(ctx, channel, payload).Result()
}

// publishCount sends payload on channel and reports how many
// subscriptions it reached: those of this hub one by one, and one for each
// other connection subscribed to the channel (another process's hub,
// which may stand for several subscriptions there).
func (h *hub) publishCount(ctx context.Context, channel string, payload []byte) (int, error) {
	n, err := h.send(ctx, channel, payload)
	if err != nil {
		return 0, err
	}
	h.mu.Lock()
	local := len(h.subs[channel])
	confirmed := false
	if c := h.confirmed[channel]; c != nil {
		select {
		case <-c:
			confirmed = true
		default:
		}
	}
	h.mu.Unlock()
	if confirmed && n > 0 { // Redis counted this hub's connection once
		n--
	}
	return int(n) + local, nil
}

func (h *hub) close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	ps, done := h.ps, h.done
	for _, subs := range h.subs {
		for _, q := range subs {
			q.close()
		}
	}
	h.subs = map[string]map[int]*queue{}
	h.mu.Unlock()
	if ps == nil {
		return nil
	}
	err := ps.Close()
	<-done
	return err
}

// maxQueued bounds the messages waiting for one subscriber; more are
// dropped (delivery is at most once).
const maxQueued = 10_000

// A queue calls fn with each payload pushed, in order, one at a time, on
// a goroutine that exists only while payloads wait, so that a slow
// subscriber does not hold up the others.
type queue struct {
	fn      func([]byte)
	mu      sync.Mutex
	items   [][]byte
	running bool
	closed  bool
}

func (q *queue) push(p []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.items) >= maxQueued {
		return
	}
	q.items = append(q.items, p)
	if !q.running {
		q.running = true
		go q.drain()
	}
}

func (q *queue) drain() {
	for {
		q.mu.Lock()
		if len(q.items) == 0 || q.closed {
			q.items, q.running = nil, false
			q.mu.Unlock()
			return
		}
		p := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		q.mu.Unlock()
		q.fn(p)
	}
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}
