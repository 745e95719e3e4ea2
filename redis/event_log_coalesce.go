package redis

import (
	"context"
	"slices"

	"github.com/gomcp/sdk/ext/events"
)

// Reads are coalesced: when an Append wakes the push streams of a type on
// an instance, they all read after the same cursor (the head they had
// reached), and one Redis read serves them all instead of one each.
//
// A reader joins a read in flight only if the type's Changed channel is
// still the one that was current when that read began. Then no wake has
// happened since, so an Append the shared read does not see has its
// publish still to come, and that publish closes the channel the joining
// reader took before its Read (or an earlier one of its, already closed):
// no Append is missed. Reads with a replay floor (Since) or from now are
// not coalesced.

// A readKey identifies reads that can share a result.
type readKey struct {
	name, after string
	max         int
}

// A readCall is a read in flight that others may share.
type readCall struct {
	changed chan struct{} // the type's Changed channel when it began
	done    chan struct{} // closed when res and err are set
	res     events.ReadResult
	err     error
}

// Read returns records of req.Name after req.After: up to Max (at most
// 1,000) records, oldest first, a gap (Truncated) for records trimmed,
// older than Since or MaxAge, or that do not decode, and the cursor to
// read on from.
func (l *EventLog) Read(ctx context.Context, req events.ReadRequest) (events.ReadResult, error) {
	if req.After == "" || !req.Since.IsZero() {
		return l.read(ctx, req)
	}
	key := readKey{req.Name, req.After, req.Max}
	l.mu.Lock()
	cur := l.waits[req.Name]
	c := l.reads[key]
	if c == nil || cur == nil || c.changed != cur {
		c = &readCall{changed: cur, done: make(chan struct{})}
		if l.reads[key] == nil {
			l.reads[key] = c
		}
		// Detached from ctx, so that the readers who joined get their
		// result if this one leaves; bounded by opTimeout.
		go func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
			defer cancel()
			c.res, c.err = l.read(rctx, req)
			l.mu.Lock()
			if l.reads[key] == c {
				delete(l.reads, key)
			}
			l.mu.Unlock()
			close(c.done)
		}()
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
