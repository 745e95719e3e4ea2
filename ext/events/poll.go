package events

import (
	"context"
	"errors"

	"github.com/gomcp/sdk/mcp"
)

// maxReadsPerRequest bounds the log reads one poll makes, or one step of
// a push stream, when a type's Match filters most records out: the
// request then ends with hasMore and the client polls again.
const maxReadsPerRequest = 8

// poll serves events/poll: the occurrences after the request's cursor
// that match its arguments, at most MaxEvents of them, and where to
// continue.
func (es *Server) poll(ctx context.Context, ss *mcp.ServerSession, p *PollParams) (*PollResult, error) {
	t, args, err := es.admit(ctx, ss, p.Name, DeliveryPoll, p.Arguments)
	if err != nil {
		return nil, err
	}
	if p.MaxEvents < 0 {
		return nil, errInvalidParams("maxEvents must not be negative")
	}
	limit := es.opts.MaxEvents
	if p.MaxEvents > 0 {
		limit = min(limit, p.MaxEvents)
	}
	matches := t.filter(args)
	res := &PollResult{Events: []*Occurrence{}, NextPollMs: es.opts.PollInterval.Milliseconds()}
	req, err := firstRead(p.Name, p.Cursor, p.MaxAgeMs, limit)
	if err != nil {
		return nil, err
	}
	for range maxReadsPerRequest {
		r, err := es.opts.Log.Read(ctx, req)
		if err != nil {
			return nil, logError(err)
		}
		req.After = r.Next
		if r.Truncated {
			// The gap is reported first; delivery goes on from the
			// fresh cursor on the next poll.
			res.Truncated, res.HasMore = true, true
			break
		}
		for i := range r.Records {
			if matches(r.Records[i].Data) {
				o := occurrence(&r.Records[i])
				o.Cursor = nil // a poll carries the cursor once, beside the events
				res.Events = append(res.Events, o)
			}
		}
		res.HasMore = r.More
		if !r.More || len(res.Events) >= limit || req.After == "" {
			break
		}
		req.Max = limit - len(res.Events)
	}
	res.Cursor = &req.After
	return res, nil
}

// logError is the error of a failed log read: -32602 for a malformed
// cursor, else an internal error.
func logError(err error) error {
	if errors.Is(err, ErrBadCursor) {
		return errInvalidParams("invalid cursor: %v", err)
	}
	return err
}
