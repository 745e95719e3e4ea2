package events

import (
	"context"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// DefaultMinPollInterval is the floor PollLoop applies to a server's
// nextPollMs.
const DefaultMinPollInterval = time.Second

// PollOptions configure PollLoop.
type PollOptions struct {
	// Arguments are the subscription's arguments (nil means {}).
	Arguments any
	// Cursor is where to start; nil starts from now. Pass the cursor
	// OnCursor last reported to resume.
	Cursor *string
	// MaxAge, if positive, is the replay floor sent as maxAgeMs.
	MaxAge time.Duration
	// MaxEvents, if positive, caps each batch.
	MaxEvents int
	// MinInterval is the floor on the server's nextPollMs (default
	// DefaultMinPollInterval).
	MinInterval time.Duration
	// OnEvent receives each occurrence, in order. An error stops the
	// loop, which returns it; the cursor of that batch is not reported.
	OnEvent func(ctx context.Context, o *Occurrence) error
	// OnCursor, if set, receives every cursor the server returns after
	// the batch before it was handled, with the result's truncated flag:
	// the cursor to keep. A null cursor (no replay) is never reported.
	OnCursor func(cursor string, truncated bool)

	// wait waits between polls; tests replace it.
	wait func(ctx context.Context, d time.Duration) error
}

// PollLoop polls the event type name until ctx is done or the server ends
// the subscription: it polls again at once while results have hasMore,
// and otherwise waits nextPollMs, never less than opts.MinInterval. It
// returns ctx's error, the error OnEvent returned, a *TerminatedError
// when the server answered a poll with an error (NotFound, Forbidden,
// ...), or the error of a poll that could not be made.
func PollLoop(ctx context.Context, cs *mcp.ClientSession, name string, opts *PollOptions) error {
	o := PollOptions{}
	if opts != nil {
		o = *opts
	}
	if o.MinInterval <= 0 {
		o.MinInterval = DefaultMinPollInterval
	}
	if o.wait == nil {
		o.wait = sleep
	}
	args, err := encodeArguments(o.Arguments)
	if err != nil {
		return err
	}
	p := &PollParams{Name: name, Arguments: args, Cursor: o.Cursor, MaxEvents: o.MaxEvents, MaxAgeMs: maxAgeMs(o.MaxAge)}
	for {
		res, err := Poll(ctx, cs, p)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return asTerminated(err)
		}
		for _, ev := range res.Events {
			if o.OnEvent != nil {
				if err := o.OnEvent(ctx, ev); err != nil {
					return err
				}
			}
		}
		// A null cursor is not kept: the next poll starts from now.
		p.Cursor = res.Cursor
		if res.Cursor != nil && o.OnCursor != nil {
			o.OnCursor(*res.Cursor, res.Truncated)
		}
		if res.HasMore {
			if err := ctx.Err(); err != nil {
				return err
			}
			continue
		}
		wait := max(time.Duration(res.NextPollMs)*time.Millisecond, o.MinInterval)
		if err := o.wait(ctx, wait); err != nil {
			return err
		}
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
