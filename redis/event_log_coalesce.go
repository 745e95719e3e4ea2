package redis

import (
	"context"
	"runtime"
	"slices"

	"github.com/gomcp/sdk/ext/events"
)

// Reads are coalesced: when an Append wakes the push streams of a type on
// an instance, they all read after the same cursor (the head they had
// reached), and one Redis read serves them all instead of one each.
//
// A reader joins only a read that has not been sent yet, so the shared
// read is made after every reader that shares it has begun its Read: each
// gets what a read of its own would have found at that moment. Nothing an
// Append finished before a Read began is missed (on any instance), and so
// no Append between a reader's Changed and its Read.

// A readKey identifies reads that can share a result.
type readKey struct {
	name, after string
	since       int64 // Unix ns, 0 for none
	max         int
}

// A readCall is a read that others may share until it is sent.
type readCall struct {
	done chan struct{} // closed when res and err are set
	res  events.ReadResult
	err  error
}

// Read returns records of req.Name after req.After: up to Max (at most
// 1,000) records, oldest first, a gap (Truncated) for records trimmed,
// older than Since or MaxAge, or that do not decode, and the cursor to
// read on from.
func (l *EventLog) Read(ctx context.Context, req events.ReadRequest) (events.ReadResult, error) {
	key := readKey{name: req.Name, after: req.After, max: req.Max}
	if !req.Since.IsZero() {
		key.since = req.Since.UnixNano()
	}
	l.mu.Lock()
	c := l.reads[key]
	if c == nil {
		c = &readCall{done: make(chan struct{})}
		l.reads[key] = c
		go l.readShared(ctx, key, c, req)
	}
	l.mu.Unlock()
	select {
	case <-c.done:
		res := c.res
		res.Records = slices.Clone(res.Records) // each reader its own slice
		return res, c.err
	case <-ctx.Done():
		return events.ReadResult{}, ctx.Err()
	}
}

// readShared makes the read c stands for, once the readers woken with the
// one who started it have had a chance to join. It is detached from ctx,
// so that those who joined get their result if the first one leaves, and
// bounded by opTimeout.
func (l *EventLog) readShared(ctx context.Context, key readKey, c *readCall, req events.ReadRequest) {
	runtime.Gosched()
	l.mu.Lock()
	delete(l.reads, key) // sent: no one joins from now on
	l.mu.Unlock()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	c.res, c.err = l.read(rctx, req)
	close(c.done)
}
