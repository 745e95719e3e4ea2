package mcp

import (
	"net/http"
	"sync"
	"time"
)

// DefaultStreamStartDelay is how long a legacy request on a handler with
// an EventStore runs, unless it sends something first, before its
// response becomes a resumable SSE stream
// (StreamableHTTPOptions.StreamStartDelay). A call that ends sooner is
// answered with one JSON object: nothing stored, no priming event. A call
// that runs longer is resumable from then on; until then, a client that
// loses its connection has no event id to resume from, and sends the
// request again.
const DefaultStreamStartDelay = 100 * time.Millisecond

// awaitDetachable holds the HTTP response of a resumable POST stream until
// the stream lets it go (its response was sent, or CloseSSEStream closed
// it) or the client goes away. After delay (when not negative) it starts
// the stream if nothing has yet.
func (px *postExchange) awaitDetachable(release <-chan struct{}, delay time.Duration) {
	var start <-chan time.Time
	if delay >= 0 {
		t := startTimer(delay)
		defer stopTimer(t)
		start = t.C
	}
	for {
		select {
		case <-release:
			return
		case <-px.r.Context().Done():
			px.stream.detach(px.w)
			return
		case <-start:
			start = nil
			px.stream.startLate(px.w)
		}
	}
}

// startLate starts a lazily started stream, with its priming event, if w
// is still its response and it has not started.
func (st *responseStream) startLate(w http.ResponseWriter) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == w && st.lazy && !st.done {
		// A failed write detaches the stream (and is logged).
		_ = st.startSSELocked(true)
	}
}

// dropLazyLocked forgets a resumable stream answered with one JSON
// object: there is nothing to resume.
func (st *responseStream) dropLazyLocked() {
	if st.id != "" && st.sess != nil {
		st.sess.dropStream(st.id)
	}
}

// startTimers holds stopped timers for awaitDetachable, which would
// otherwise make one for every request.
var startTimers sync.Pool

// startTimer returns a timer that fires after d.
func startTimer(d time.Duration) *time.Timer {
	if t, ok := startTimers.Get().(*time.Timer); ok {
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

// stopTimer stops t and keeps it for startTimer. Since Go 1.23 a stopped
// timer's channel holds no stale value, so a reused one fires only
// after its new delay.
func stopTimer(t *time.Timer) {
	t.Stop()
	startTimers.Put(t)
}
