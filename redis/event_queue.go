package redis

import (
	"context"
	"errors"
	"slices"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// Events are written to Redis behind the handler: Append queues the event
// and returns, and one goroutine per backend, which runs only while events
// wait, writes the queue in order, every event waiting at the time in one
// round trip (a pipeline). Reads of the event store from the same process
// first wait until the events queued before them are written, so that a
// process always reads what it appended; another instance reading a stream
// whose last events are still queued here gets them when they are written
// (the mcp handler waits for the stream's response when it resumes a
// stream of another instance).

// maxQueuedEvents bounds the events waiting to be written; Append fails
// with errBacklog beyond it (Redis is too slow or unreachable).
const maxQueuedEvents = 10_000

// maxEventBatch bounds the events written in one round trip.
const maxEventBatch = 256

var errBacklog = errors.New("mcp/redis: too many events waiting to be stored")

// An eventQueue holds the events waiting to be written.
type eventQueue struct {
	b *Backend

	mu      sync.Mutex
	written *sync.Cond // signalled when done grows
	pending []queuedEvent
	queued  uint64 // events ever queued
	done    uint64 // events ever written, or failed
	running bool
}

type queuedEvent struct {
	stream, set string // the stream's key, and its session's set of keys
	data        []byte
}

func newEventQueue(b *Backend) *eventQueue {
	q := &eventQueue{b: b}
	q.written = sync.NewCond(&q.mu)
	return q
}

// push queues one event, keeping its own copy of data.
func (q *eventQueue) push(stream, set string, data []byte) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) >= maxQueuedEvents {
		return errBacklog
	}
	q.pending = append(q.pending, queuedEvent{stream, set, slices.Clone(data)})
	q.queued++
	if !q.running {
		q.running = true
		go q.drain()
	}
	return nil
}

// sync waits until the events queued so far are written (or have failed).
// A write is bounded by opTimeout, and a failed one drops the queue, so
// sync waits at most about one opTimeout per maxEventBatch events queued
// before it while Redis answers, and one opTimeout in all when it fails.
func (q *eventQueue) sync() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for target := q.queued; q.done < target; {
		q.written.Wait()
	}
}

// drain writes the queue until it is empty.
func (q *eventQueue) drain() {
	for {
		q.mu.Lock()
		if len(q.pending) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		n := min(len(q.pending), maxEventBatch)
		batch := slices.Clone(q.pending[:n])
		clear(q.pending[:n])
		q.pending = q.pending[n:]
		if len(q.pending) == 0 {
			q.pending = nil
		}
		q.mu.Unlock()
		err := q.write(batch)
		q.mu.Lock()
		q.done += uint64(len(batch))
		if err != nil {
			// Those queued behind would fail too, one timeout after
			// another: drop them, so that no reader waits long.
			q.b.opts.Logger.Warn("mcp/redis: storing events failed: they cannot be replayed", "events", len(batch)+len(q.pending), "error", err)
			q.done += uint64(len(q.pending))
			q.pending = nil
		}
		q.written.Broadcast()
		q.mu.Unlock()
	}
}

// write stores a batch of events in one pipeline, in order: each is
// appended with the next position as its id (XADD 0-*), the stream's key
// added to its session's set, and both keys' TTL restarted.
func (q *eventQueue) write(batch []queuedEvent) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	o := q.b.opts
	_, err := q.b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, e := range batch {
			p.XAdd(ctx, &goredis.XAddArgs{Stream: e.stream, MaxLen: o.MaxEventsPerStream, Approx: true, ID: "0-*", Values: []any{"d", e.data}})
			p.SAdd(ctx, e.set, e.stream)
			p.PExpire(ctx, e.stream, o.EventTTL)
			p.PExpire(ctx, e.set, o.EventTTL)
		}
		return nil
	})
	return err
}
