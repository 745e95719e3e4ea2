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
// until the SessionRouter has carried its announcement, so that the
// client's next request sees the change on every instance. An
// announcement the router loses (delivery is at most once) delays the
// change on an instance by sessionRecheck at most.

// sessionRecheck bounds how long an instance serves a shared session from
// its own copy before reading the store again (which also restarts the
// session's TTL there).
const sessionRecheck = time.Second

// settleWait bounds how long an instance waits for the router to carry an
// announcement back to itself.
const settleWait = 100 * time.Millisecond

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

// closeSettleTime is how long a DELETE waits, once the router has carried
// its RouteClose back to this instance, before it answers: the other
// instances received the message at the same moment but handle it on
// their own goroutines, and a client that sends its next request with the
// deleted session at once must get 404 from whichever instance it reaches.
// A DELETE is rare, so the wait costs little; it narrows the window to a
// scheduling delay longer than this on another instance (an instance that
// misses the message altogether answers from its copy for sessionRecheck
// at most).
const closeSettleTime = 20 * time.Millisecond

// announce tells the other instances serving the session that it changed
// (RouteState) or ended (RouteClose), and waits until the router has
// carried the message back to this instance, which it does for the
// others at the same time. It reports whether the message came back.
func (sess *httpSession) announce(ctx context.Context, kind string) bool {
	if sess.h.opts.SessionRouter == nil {
		return false
	}
	nonce := []byte(`"` + rand.Text() + `"`)
	echo := make(chan struct{})
	sess.shared.mu.Lock()
	subscribed := sess.shared.unsub != nil
	if subscribed {
		if sess.shared.echoes == nil {
			sess.shared.echoes = map[string]chan struct{}{}
		}
		sess.shared.echoes[string(nonce)] = echo
	}
	sess.shared.mu.Unlock()
	if sess.publishRoute(ctx, &SessionMessage{Kind: kind, Data: nonce}) != nil || !subscribed {
		sess.dropEcho(string(nonce))
		return false
	}
	t := time.NewTimer(settleWait)
	defer t.Stop()
	select {
	case <-echo:
		return true
	case <-t.C:
		sess.dropEcho(string(nonce))
		return false
	}
}

func (sess *httpSession) dropEcho(nonce string) {
	sess.shared.mu.Lock()
	delete(sess.shared.echoes, nonce)
	sess.shared.mu.Unlock()
}

// onEcho handles one of the instance's own announcements coming back.
func (sess *httpSession) onEcho(m *SessionMessage) {
	if m.Kind != RouteState && m.Kind != RouteClose {
		return
	}
	sess.shared.mu.Lock()
	if ch := sess.shared.echoes[string(m.Data)]; ch != nil {
		close(ch)
		delete(sess.shared.echoes, string(m.Data))
	}
	sess.shared.mu.Unlock()
}

// onStateChanged handles another instance's RouteState: the next request
// reads the state from the store.
func (sess *httpSession) onStateChanged() {
	sess.shared.mu.Lock()
	sess.shared.fresh = time.Time{}
	sess.shared.mu.Unlock()
}
