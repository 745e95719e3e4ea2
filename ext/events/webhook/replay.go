package webhook

import (
	"sync"
	"time"
)

// DefaultReplayCapacity is how many deliveries a Receiver remembers for
// replay detection by default.
const DefaultReplayCapacity = 1 << 16

// replayState is what the replay cache says of a delivery.
type replayState int

const (
	replayNew  replayState = iota // not seen: process it
	replayDone                    // processed: acknowledge without processing
	replayBusy                    // being processed by another request
	replayFull                    // the cache is full of live entries
)

// replayEntry is one remembered delivery.
type replayEntry struct {
	key     string
	expires time.Time
	done    bool
}

// replayCache remembers the deliveries a Receiver accepted, each until no
// copy of it can pass the timestamp check any more, in at most max entries.
// When it is full of live entries it refuses new deliveries rather than
// forget one early, so a replay is never let through.
type replayCache struct {
	max int

	mu      sync.Mutex
	entries map[string]*replayEntry
	queue   []*replayEntry // in insertion order; entries removed by abort stay until popped
	head    int
}

func newReplayCache(max int) *replayCache {
	return &replayCache{max: max, entries: map[string]*replayEntry{}}
}

// begin records key as being processed until expires, unless it is known.
func (c *replayCache) begin(key string, expires, now time.Time) replayState {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.purge(now)
	if e, ok := c.entries[key]; ok && e.expires.After(now) {
		if e.done {
			return replayDone
		}
		return replayBusy
	}
	if len(c.entries) >= c.max {
		return replayFull
	}
	e := &replayEntry{key: key, expires: expires}
	c.entries[key] = e
	c.queue = append(c.queue, e)
	return replayNew
}

// finish marks key as processed.
func (c *replayCache) finish(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		e.done = true
	}
}

// abort forgets key, whose processing failed, so that a retry is processed.
func (c *replayCache) abort(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
}

// purge drops the expired entries at the front of the queue, and compacts
// the queue when it holds mostly dropped ones. c.mu is held.
func (c *replayCache) purge(now time.Time) {
	for c.head < len(c.queue) {
		e := c.queue[c.head]
		if cur, ok := c.entries[e.key]; ok && cur == e {
			if e.expires.After(now) {
				break
			}
			delete(c.entries, e.key)
		}
		c.queue[c.head] = nil
		c.head++
	}
	if live := len(c.queue) - c.head; (c.head > 0 && c.head >= live) || live > 2*c.max {
		kept := c.queue[:0]
		for _, e := range c.queue[c.head:] {
			if cur, ok := c.entries[e.key]; ok && cur == e {
				kept = append(kept, e)
			}
		}
		clear(c.queue[len(kept):])
		c.queue, c.head = kept, 0
	}
}
