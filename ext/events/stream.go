package events

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// stream serves events/stream: after checking the subscription it sends
// NotificationActive, then every matching occurrence as it is recorded,
// and a heartbeat every ServerOptions.Heartbeat, until the client leaves
// (no result), the type is removed or changed (NotificationTerminated) or the server
// closes (the result). Every notification carries the request's id as its
// subscription id.
func (es *Server) stream(ctx context.Context, ss *mcp.ServerSession, p *StreamParams) (*StreamResult, error) {
	t, args, err := es.admit(ctx, ss, p.Name, DeliveryPush, p.Arguments)
	if err != nil {
		return nil, err
	}
	req, err := firstRead(p.Name, p.Cursor, p.MaxAgeMs, es.opts.MaxEvents)
	if err != nil {
		return nil, err
	}
	if n := es.streams.Add(1); n > int64(es.opts.MaxStreams) {
		es.streams.Add(-1)
		return nil, newError(CodeResourceExhausted, "ResourceExhausted: too many push streams", map[string]any{"limit": "streams", "max": es.opts.MaxStreams})
	}
	defer es.streams.Add(-1)
	info, _ := mcp.RequestInfoFromContext(ctx)
	st := &pushStream{es: es, ss: ss, t: t, matches: t.filter(args), id: info.ID, req: req}
	return st.run(ctx)
}

// A pushStream is one events/stream request being served.
type pushStream struct {
	es *Server
	ss *mcp.ServerSession
	t  *served
	// matches is the subscription's filter.
	matches func(data json.RawMessage) bool
	id      any // the request's id: the subscription id
	req     ReadRequest
}

// meta returns the _meta of the stream's notifications.
func (st *pushStream) meta() mcp.Meta { return mcp.Meta{SubscriptionID: st.id} }

// run sends the stream's notifications until it ends.
func (st *pushStream) run(ctx context.Context) (*StreamResult, error) {
	log := st.es.opts.Log
	// The first read settles where delivery starts: the head for a null
	// cursor, a fresh cursor after a gap.
	first, err := log.Read(ctx, st.req)
	if err != nil {
		return nil, logError(err)
	}
	start := st.req.After
	if start == "" || first.Truncated {
		start = first.Next
	}
	cur := start
	if err := st.notify(ctx, NotificationActive, &ActiveParams{Meta: st.meta(), Cursor: &cur, Truncated: first.Truncated}); err != nil {
		return nil, err
	}
	// The first read's records are delivered below, read again: it costs
	// a read and keeps one path. The records after start are within the
	// replay floor, so it applies no more.
	st.req.After, st.req.Since = start, time.Time{}
	heartbeat := time.NewTicker(st.es.opts.Heartbeat)
	defer heartbeat.Stop()
	for {
		changed := log.Changed(st.req.Name)
		more, err := st.deliver(ctx)
		if err != nil {
			return nil, err
		}
		if more {
			changed = closedChan
		}
		select {
		case <-changed:
		case <-heartbeat.C:
			cursor := st.req.After
			if err := st.notify(ctx, NotificationHeartbeat, &HeartbeatParams{Meta: st.meta(), Cursor: &cursor}); err != nil {
				return nil, err
			}
		case <-st.t.removed:
			if err := st.notify(ctx, NotificationTerminated, &ErrorParams{Meta: st.meta(), Error: errorObject(st.t.err)}); err != nil {
				return nil, err
			}
			return &StreamResult{Meta: st.meta()}, nil
		case <-st.es.closing:
			return &StreamResult{Meta: st.meta()}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// deliver sends the matching records after the stream's cursor, reading
// until the log has no more (more reports that it stopped before), and
// reports a gap as NotificationActive with truncated.
func (st *pushStream) deliver(ctx context.Context) (more bool, err error) {
	for range maxReadsPerRequest {
		r, err := st.es.opts.Log.Read(ctx, st.req)
		if err != nil {
			return false, logError(err)
		}
		st.req.After = r.Next
		if r.Truncated {
			cursor := r.Next
			if err := st.notify(ctx, NotificationActive, &ActiveParams{Meta: st.meta(), Cursor: &cursor, Truncated: true}); err != nil {
				return false, err
			}
			continue
		}
		for i := range r.Records {
			if !st.matches(r.Records[i].Data) {
				continue
			}
			o := occurrence(&r.Records[i])
			o.Meta = st.meta()
			if err := st.notify(ctx, NotificationEvent, o); err != nil {
				return false, err
			}
		}
		if !r.More {
			return false, nil
		}
	}
	return true, nil
}

// closedChan is a closed channel: a select on it goes on at once.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// notify sends one notification of the stream.
func (st *pushStream) notify(ctx context.Context, method string, params any) error {
	return st.ss.Notify(ctx, method, params)
}
