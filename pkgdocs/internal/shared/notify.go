package shared

import (
	"context"
	"errors"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// notifier delivers the lock holders' announcements to this instance's
// waits over one pattern subscription (one connection, however many keys
// are awaited), made when the first wait starts and kept until Close.
// go-redis makes it again, resubscribed, after Redis comes back; what was
// announced meanwhile is lost, and the waits' polls make up for it.
type notifier struct {
	client  goredis.UniversalClient
	pattern string

	mu     sync.Mutex
	sub    *goredis.PubSub
	closed bool
	waits  map[string]map[chan struct{}]struct{} // by channel
	done   chan struct{}                         // closed when deliver returns
}

// errClosed reports a wait started after Close.
var errClosed = errors.New("shared store closed")

// watch registers a wait for an announcement on channel; the returned
// channel receives one after any announcement made from now on. stop
// ends the wait.
func (n *notifier) watch(ctx context.Context, channel string) (announced <-chan struct{}, stop func(), err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, nil, errClosed
	}
	if n.sub == nil {
		sub := n.client.PSubscribe(ctx, n.pattern)
		// Confirmed before the first wait looks at the store, so that an
		// announcement made after that look is not missed.
		if _, err := sub.Receive(ctx); err != nil {
			sub.Close()
			return nil, nil, err
		}
		n.sub, n.waits, n.done = sub, map[string]map[chan struct{}]struct{}{}, make(chan struct{})
		go n.deliver(sub.Channel(), n.done)
	}
	c := make(chan struct{}, 1)
	if n.waits[channel] == nil {
		n.waits[channel] = map[chan struct{}]struct{}{}
	}
	n.waits[channel][c] = struct{}{}
	return c, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.waits[channel], c)
		if len(n.waits[channel]) == 0 {
			delete(n.waits, channel)
		}
	}, nil
}

// deliver wakes the waits of each announcement's channel.
func (n *notifier) deliver(msgs <-chan *goredis.Message, done chan struct{}) {
	defer close(done)
	for m := range msgs {
		n.mu.Lock()
		for c := range n.waits[m.Channel] {
			select {
			case c <- struct{}{}:
			default: // already woken
			}
		}
		n.mu.Unlock()
	}
}

// close ends the subscription and waits for deliver to return.
func (n *notifier) close() error {
	n.mu.Lock()
	n.closed = true
	sub, done := n.sub, n.done
	n.mu.Unlock()
	if sub == nil {
		return nil
	}
	err := sub.Close()
	<-done
	return err
}
