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
// restarts.
type hub struct {
	client   goredis.UniversalClient
	logger   *slog.Logger
	maxBytes int

	mu        sync.Mutex
	ps        *goredis.PubSub
	closed    bool
	next      int
	subs      map[string]map[int]*queue // by channel
	confirmed map[string]chan struct{}  // closed once Redis confirmed the channel
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
	if h.ps == nil {
		h.ps = h.client.Subscribe(ctx, channel)
		h.done = make(chan struct{})
		go h.read(h.ps, h.done)
	} else if first {
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
		_ = ps.Unsubscribe(ctx, channel) // fails only if Redis is gone, which ends the subscription anyway
	}
}

// read delivers the messages of ps until it is closed.
func (h *hub) read(ps *goredis.PubSub, done chan struct{}) {
	defer close(done)
	for m := range ps.ChannelWithSubscriptions() {
		switch m := m.(type) {
		case *goredis.Subscription:
			if m.Kind == "subscribe" {
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
	return h.client.Publish(ctx, channel, payload).Err()
}

// publishCount sends payload on channel and reports how many
// subscriptions it reached: those of this hub one by one, and one for each
// other connection subscribed to the channel (another process's hub,
// which may stand for several subscriptions there).
func (h *hub) publishCount(ctx context.Context, channel string, payload []byte) (int, error) {
	n, err := h.client.Publish(ctx, channel, payload).Result()
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
