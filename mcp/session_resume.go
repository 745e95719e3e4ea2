package mcp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Resuming, on one instance, a stream another instance serves (shared
// sessions): the events come from the shared EventStore, read again each
// time the stream grows until its response is among them, so the client
// sees the stream go on as if it had reconnected to the instance running
// the request. A store that is an EventWaiter says when the stream grows;
// any other is read again at an interval (remoteResumePoll, doubling up to
// remoteResumeMaxPoll).

// remoteResumeWait bounds how long a resumed stream of another instance
// waits for events before it ends; the client then resumes again.
const remoteResumeWait = 10 * time.Second

// remoteUnknownWait is how long a stream the store has no event of yet
// is waited for before the resumption is refused with 404: a request
// another instance serves may not have sent anything yet, but a stream
// that never was (or is another session's) must not hold the client.
const remoteUnknownWait = 2 * time.Second

// remoteResumePoll and remoteResumeMaxPoll bound the interval at which a
// store that cannot wait for events is read again.
const (
	remoteResumePoll    = 50 * time.Millisecond
	remoteResumeMaxPoll = 800 * time.Millisecond
)

// remoteStream reports whether streamID names a stream another instance
// of a shared session created.
func (sess *httpSession) remoteStream(streamID string) bool {
	if !sess.h.shared() || sess.h.cfg.store == nil {
		return false
	}
	inst, _, ok := strings.Cut(streamID, ".")
	return ok && inst != sess.h.instanceID()
}

// resumeRemote serves a GET with Last-Event-ID for a stream of another
// instance, reporting false if the stream is not one.
func (sess *httpSession) resumeRemote(w http.ResponseWriter, r *http.Request, streamID string, index int) bool {
	if !sess.remoteStream(streamID) || sess.stream(streamID) != nil {
		return false
	}
	store := sess.h.cfg.store
	st := &responseStream{cfg: &sess.h.cfg, sess: sess, id: streamID, canSSE: true}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.attachLocked(w)
	started := false
	begin := time.Now()
	deadline := begin.Add(remoteResumeWait)
	poll := remoteResumePoll
	for {
		var events [][]byte
		var err error
		for data, e := range store.After(r.Context(), sess.id, streamID, index) {
			if e != nil {
				err = e
				break
			}
			events = append(events, data)
		}
		switch {
		case errors.Is(err, ErrUnknownStream) && !started && time.Since(begin) < remoteUnknownWait:
			// Nothing stored yet: the request may not have sent anything.
		case err != nil && !started:
			st.detachLocked()
			writeHTTPError(w, http.StatusNotFound, CodeInvalidRequest, "cannot resume stream: "+err.Error())
			return true
		case err != nil:
			st.detachLocked()
			return true
		}
		pending := err != nil // unknown so far: wait before starting
		if !started && !pending {
			if st.startSSELocked(false) != nil {
				return true
			}
			started = true
		}
		final := false
		for _, data := range events {
			index++
			st.evbuf = appendSSEEvent(st.evbuf[:0], "message", st.eventID(index), data)
			if st.writeLocked(st.evbuf) != nil {
				return true
			}
			if m, err := jsonrpc2.Decode(data); err == nil {
				_, final = m.(*jsonrpc2.Response)
			}
		}
		if started && (final || time.Now().After(deadline)) {
			st.evbuf = appendSSERetry(st.evbuf[:0], sess.h.opts.RetryInterval)
			_ = st.writeLocked(st.evbuf) // a failed write detaches the stream, which is what ending it means
			st.detachLocked()
			return true
		}
		until := deadline
		if pending {
			until = begin.Add(remoteUnknownWait)
		}
		st.mu.Unlock()
		poll = sess.waitRemote(r, streamID, index, until, poll)
		st.mu.Lock()
		if r.Context().Err() != nil || st.w == nil {
			st.detachLocked()
			return true
		}
	}
}

// waitRemote waits until the stream holds more than index events, the
// request or the session ends, or until passes. With a store that cannot
// wait, it sleeps poll instead and returns the next interval to sleep.
func (sess *httpSession) waitRemote(r *http.Request, streamID string, index int, until time.Time, poll time.Duration) time.Duration {
	ctx, cancel := context.WithDeadline(r.Context(), until)
	defer cancel()
	go func() {
		select {
		case <-sess.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	if w, ok := sess.h.cfg.store.(EventWaiter); ok {
		err := w.WaitEvents(ctx, sess.id, streamID, index)
		if err == nil || ctx.Err() != nil {
			return remoteResumePoll
		}
		sess.h.opts.Logger.Debug("mcp: waiting for events failed; reading the event store at an interval", "session", sess.id, "error", err)
	}
	t := time.NewTimer(poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return min(2*poll, remoteResumeMaxPoll)
}
