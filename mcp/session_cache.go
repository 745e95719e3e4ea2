package mcp

import (
	"context"
	"crypto/rand"
	"time"
)

// An instance serving a shared session keeps its own copy of the session's
// state and trusts it, without reading the SessionStore, for
// sessionRecheck after it last read or saved it, as long as it receives
// the session's routed messages: an instance that changes the state
// (logging/setLevel, resources/subscribe, ...) announces it with
// RouteState, and a DELETE with RouteClose, and waits (up to settleWait)
// until every instance the announcement reached has acknowledged it
// (RouteAck; with a CountingSessionRouter, else until it came back to
// itself), so that the client's next request sees the change on every
// instance. An announcement the router loses (delivery is at most once)
// delays the change on an instance by sessionRecheck at most.

// sessionRecheck bounds how long an instance serves a shared session from
// its own copy before reading the store again (which also restarts the
// session's TTL there).
const sessionRecheck = time.Second

// settleWait bounds how long an instance waits for the answers to an
// announcement: normally they all come within a few milliseconds, and the
// bound matters only when one is lost or an instance is stalled.
const settleWait = 500 * time.Millisecond

// recheckAfter is how long the copy of a session is trusted: a quarter of
// the session timeout if that is shorter than sessionRecheck, so that the
// store's TTL is restarted in time.
func (h *StreamableHTTPHandler) recheckAfter() time.Duration {
	if t := h.opts.SessionTimeout; t > 0 && t/4 < sessionRecheck {
		return t / 4
	}
	return sessionRecheck
}

// cached reports whether the instance may serve the session from its own
// copy of the state now.
func (sess *httpSession) cached() bool {
	sess.shared.mu.Lock()
	defer sess.shared.mu.Unlock()
	return sess.shared.unsub != nil && time.Now().Before(sess.shared.fresh)
}

// markFreshLocked records that the copy of the state was just read from,
// or saved to, the store. sess.shared.mu is held.
func (sess *httpSession) markFreshLocked() {
	sess.shared.fresh = time.Now().Add(sess.h.recheckAfter())
}

// An announcement is a RouteState or RouteClose of this instance waiting
// for its answers: its own echo, and the other instances'
// acknowledgements (RouteAck).
type announcement struct {
	got   int           // answers so far; sess.shared.mu guards it
	reply chan struct{} // signalled (buffered) after each answer
}

// announce tells the other instances serving the session that it changed
// (RouteState) or ended (RouteClose), and waits, for settleWait at most,
// until the announcement came back to this instance and, with a
// CountingSessionRouter, until every other subscription it reached has
// acknowledged it, that is, until every instance serving the session has
// acted on it. It reports whether it got every answer it waited for.
func (sess *httpSession) announce(ctx context.Context, kind string) bool {
	r := sess.h.opts.SessionRouter
	if r == nil {
		return false
	}
	nonce := []byte(`"` + rand.Text() + `"`)
	a := &announcement{reply: make(chan struct{}, 1)}
	sess.shared.mu.Lock()
	subscribed := sess.shared.unsub != nil
	if subscribed {
		if sess.shared.echoes == nil {
			sess.shared.echoes = map[string]*announcement{}
		}
		sess.shared.echoes[string(nonce)] = a
	}
	sess.shared.mu.Unlock()
	defer sess.dropEcho(string(nonce))
	m := &SessionMessage{Kind: kind, Data: nonce}
	want := 1 // the echo
	if cr, ok := r.(CountingSessionRouter); ok {
		n, err := sess.publishCounted(ctx, cr, m)
		if err != nil {
			return false
		}
		want = n
	} else if sess.publishRoute(ctx, m) != nil {
		return false
	}
	if !subscribed {
		return false
	}
	t := time.NewTimer(settleWait)
	defer t.Stop()
	for {
		sess.shared.mu.Lock()
		got := a.got
		sess.shared.mu.Unlock()
		if got >= want {
			return true
		}
		select {
		case <-a.reply:
		case <-t.C:
			return false
		}
	}
}

func (sess *httpSession) dropEcho(nonce string) {
	sess.shared.mu.Lock()
	delete(sess.shared.echoes, nonce)
	sess.shared.mu.Unlock()
}

// onEcho handles one of the instance's own announcements coming back.
func (sess *httpSession) onEcho(m *SessionMessage) {
	if m.Kind == RouteState || m.Kind == RouteClose {
		sess.onAck(m.Data)
	}
}

// onAck counts an answer to the announcement with the given nonce, if it
// is one of this instance's.
func (sess *httpSession) onAck(nonce []byte) {
	sess.shared.mu.Lock()
	defer sess.shared.mu.Unlock()
	if a := sess.shared.echoes[string(nonce)]; a != nil {
		a.got++
		select {
		case a.reply <- struct{}{}:
		default:
		}
	}
}

// onStateChanged handles another instance's RouteState: the next request
// reads the state from the store.
func (sess *httpSession) onStateChanged() {
	sess.shared.mu.Lock()
	sess.shared.fresh = time.Time{}
	sess.shared.mu.Unlock()
}
