package events

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// DefaultStreamHeartbeat is the heartbeat interval a client expects of a
// server unless told otherwise: the longest the extension allows.
const DefaultStreamHeartbeat = 30 * time.Second

// StreamOptions configure Client.Stream.
type StreamOptions struct {
	// Arguments are the subscription's arguments (nil means {}).
	Arguments any
	// Cursor is where to start; nil starts from now.
	Cursor *string
	// MaxAge, if positive, is the replay floor sent as maxAgeMs.
	MaxAge time.Duration
	// Heartbeat is the interval the server sends heartbeats at (default
	// DefaultStreamHeartbeat). After twice that with no message, the
	// stream counts as dead and is opened again from the last cursor.
	Heartbeat time.Duration
	// OnEvent receives each occurrence, in order. An error ends Stream,
	// which returns it.
	OnEvent func(ctx context.Context, o *Occurrence) error
	// OnCursor, if set, receives every cursor the stream moves to (after
	// each event, on heartbeats, and on a gap with truncated set): the
	// cursor to keep. A null cursor is never reported.
	OnCursor func(cursor string, truncated bool)
	// OnError, if set, receives the recoverable errors the server reports
	// on the stream (NotificationError); the stream goes on.
	OnError func(e *ErrorObject)

	// opened, if set, is called with each stream's start cursor, as its
	// NotificationActive arrives (tests).
	opened func(cursor *string)
	// wait waits before reopening a stream that failed; tests replace it.
	wait func(ctx context.Context, d time.Duration) error
}

// maxQueued bounds the notifications waiting for a stream's consumer; a
// stream whose consumer falls that far behind is reopened from its last
// cursor.
const maxQueued = 4096

// maxReopenWait bounds the wait before reopening a stream that failed.
const maxReopenWait = 30 * time.Second

// Stream receives the occurrences of the event type name on a push stream
// (events/stream) until ctx is done or the server ends the subscription.
// It reopens the stream from its last cursor: at once when no message
// arrived for twice opts.Heartbeat; after a wait (1 s, doubling up to
// 30 s while it goes on) when the server ended the stream gracefully, as
// a server that shuts down does, or the request failed. It
// returns ctx's error, the error OnEvent returned, or a *TerminatedError
// when the server refused the stream or terminated the subscription.
func (ec *Client) Stream(ctx context.Context, cs *mcp.ClientSession, name string, opts *StreamOptions) error {
	if !supported(cs) {
		return ErrNotSupported
	}
	o := StreamOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultStreamHeartbeat
	}
	if o.wait == nil {
		o.wait = sleep
	}
	args, err := encodeArguments(o.Arguments)
	if err != nil {
		return err
	}
	s := &clientStream{ec: ec, cs: cs, o: &o, cursor: o.Cursor}
	p := StreamParams{Name: name, Arguments: args, MaxAgeMs: maxAgeMs(o.MaxAge)}
	backoff := time.Second
	for {
		p.Cursor = s.cursor
		end, err := s.once(ctx, &p)
		if err != nil {
			return err
		}
		if end == endSilent {
			backoff = time.Second
			continue
		}
		if err := o.wait(ctx, backoff); err != nil {
			return err
		}
		backoff = min(2*backoff, maxReopenWait)
	}
}

// A clientStream is the state of Client.Stream across reopenings.
type clientStream struct {
	ec     *Client
	cs     *mcp.ClientSession
	o      *StreamOptions
	cursor *string
}

// How one events/stream request ended, when Stream goes on.
type streamEnd int

const (
	endSilent streamEnd = iota // no message for two heartbeats, or the consumer fell behind: reopen at once
	endClosed                  // the server ended it, or the request failed: reopen after a wait
)

// once runs one events/stream request until it ends: end says how, when
// Stream goes on; err is the end of Stream.
func (s *clientStream) once(ctx context.Context, p *StreamParams) (end streamEnd, err error) {
	q := &streamQueue{ready: make(chan struct{}, 1)}
	callCtx, cancel := context.WithCancel(ctx)
	var key *streamKey
	callCtx = mcp.WithRequestIDFunc(callCtx, func(id any) {
		s.ec.mu.Lock()
		defer s.ec.mu.Unlock()
		if key != nil { // sending middleware sent it again
			delete(s.ec.streams, *key)
		}
		key = &streamKey{s.cs, id}
		s.ec.streams[*key] = q
	})
	done := make(chan error, 1)
	go func() {
		var res StreamResult
		done <- s.cs.Call(callCtx, MethodStream, p, &res)
	}()
	defer func() {
		cancel()
		<-done
		s.ec.mu.Lock()
		if key != nil {
			delete(s.ec.streams, *key)
		}
		s.ec.mu.Unlock()
	}()
	silence := time.NewTimer(2 * s.o.Heartbeat)
	defer silence.Stop()
	for {
		select {
		case <-q.ready:
			if err := s.handle(ctx, q); err != nil {
				return 0, err
			}
			if q.overflowed() {
				return endSilent, nil
			}
			silence.Reset(2 * s.o.Heartbeat)
		case err := <-done:
			done <- err // for the deferred wait
			// The stream's notifications came before its end: handle them.
			if herr := s.handle(ctx, q); herr != nil {
				return 0, herr
			}
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			var rpc *mcp.JSONRPCError
			if errors.As(err, &rpc) {
				return 0, asTerminated(err)
			}
			return endClosed, nil // a graceful end (err nil) or a failed request
		case <-silence.C:
			return endSilent, nil // two heartbeats missed
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// handle handles the notifications queued for the stream.
func (s *clientStream) handle(ctx context.Context, q *streamQueue) error {
	for _, m := range q.take() {
		switch p := m.params.(type) {
		case *ActiveParams:
			if s.o.opened != nil {
				s.o.opened(p.Cursor)
			}
			s.moveTo(p.Cursor, p.Truncated)
		case *Occurrence:
			if s.o.OnEvent != nil {
				if err := s.o.OnEvent(ctx, p); err != nil {
					return err
				}
			}
			s.moveTo(p.Cursor, false)
		case *HeartbeatParams:
			s.moveTo(p.Cursor, false)
		case *ErrorParams:
			if p.Error == nil {
				continue
			}
			if m.method == NotificationTerminated {
				return terminated(p.Error.Code, p.Error.Message, p.Error.Data)
			}
			if s.o.OnError != nil {
				s.o.OnError(p.Error)
			}
		}
	}
	return nil
}

// moveTo records the stream's new cursor, unless it is null.
func (s *clientStream) moveTo(cursor *string, truncated bool) {
	if cursor == nil {
		return
	}
	c := *cursor
	s.cursor = &c
	if s.o.OnCursor != nil {
		s.o.OnCursor(c, truncated)
	}
}

// A streamMessage is a notification of a push stream.
type streamMessage struct {
	method string
	params any
}

// A streamQueue holds a stream's notifications, in order, from the
// connection's reader to the stream's consumer; the reader never waits.
type streamQueue struct {
	mu       sync.Mutex
	msgs     []streamMessage
	overflow bool
	ready    chan struct{} // has a value when msgs may be non-empty
}

// push queues m, or marks the queue overflowed when it is full.
func (q *streamQueue) push(m streamMessage) {
	q.mu.Lock()
	if q.overflow || len(q.msgs) >= maxQueued {
		q.overflow = true // and later messages are dropped too: order holds
	} else {
		q.msgs = append(q.msgs, m)
	}
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns and removes the queued messages.
func (q *streamQueue) take() []streamMessage {
	q.mu.Lock()
	defer q.mu.Unlock()
	m := q.msgs
	q.msgs = nil
	return m
}

// overflowed reports whether messages were dropped.
func (q *streamQueue) overflowed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.overflow
}
