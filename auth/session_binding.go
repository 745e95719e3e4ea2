package auth

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// sessionBindings binds legacy session ids (Mcp-Session-Id) to the
// principal whose token created the session, so that a leaked session id
// is useless with another subject's token. It is bounded in size and
// forgets sessions idle longer than the timeout.
type sessionBindings struct {
	max  int
	idle time.Duration // <= 0: never idle out

	mu sync.Mutex
	m  map[string]*binding
}

type binding struct {
	principal string
	lastUsed  time.Time
}

func newSessionBindings(max int, idle time.Duration) *sessionBindings {
	return &sessionBindings{max: max, idle: idle, m: make(map[string]*binding)}
}

// check reports whether session id may be used by principal: it must have
// been bound to it and not be idle too long.
func (sb *sessionBindings) check(id, principal string, now time.Time) bool {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	b, ok := sb.m[id]
	if !ok {
		return false
	}
	if sb.idle > 0 && now.Sub(b.lastUsed) > sb.idle {
		delete(sb.m, id)
		return false
	}
	if b.principal != principal {
		return false
	}
	b.lastUsed = now
	return true
}

// bind records that principal created session id. When the table is full
// it drops idle sessions, then a sixteenth of the others (in map order), so
// that inserting stays cheap; a dropped session's client must initialize
// again.
func (sb *sessionBindings) bind(id, principal string, now time.Time) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if _, ok := sb.m[id]; !ok && len(sb.m) >= sb.max {
		sb.evictLocked(now)
	}
	sb.m[id] = &binding{principal: principal, lastUsed: now}
}

func (sb *sessionBindings) evictLocked(now time.Time) {
	if sb.idle > 0 {
		for id, b := range sb.m {
			if now.Sub(b.lastUsed) > sb.idle {
				delete(sb.m, id)
			}
		}
	}
	if len(sb.m) < sb.max {
		return
	}
	drop := max(1, sb.max/16)
	for id := range sb.m {
		delete(sb.m, id)
		if drop--; drop == 0 {
			break
		}
	}
}

func (sb *sessionBindings) forget(id string) {
	sb.mu.Lock()
	delete(sb.m, id)
	sb.mu.Unlock()
}

func (sb *sessionBindings) len() int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return len(sb.m)
}

// sessionRecorder wraps the response to a POST that may create a session
// (initialize) and binds the Mcp-Session-Id the handler answers with.
type sessionRecorder struct {
	http.ResponseWriter
	bind    func(id string)
	written bool
}

func (w *sessionRecorder) record() {
	if w.written {
		return
	}
	w.written = true
	if id := w.Header().Get("Mcp-Session-Id"); id != "" {
		w.bind(id)
	}
}

// WriteHeader binds the session id of the response, then writes the
// header.
func (w *sessionRecorder) WriteHeader(code int) {
	if code >= 200 {
		w.record()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write binds the session id, if the header was not written yet, then
// writes b.
func (w *sessionRecorder) Write(b []byte) (int, error) {
	w.record()
	return w.ResponseWriter.Write(b)
}

// Flush flushes the underlying response, for SSE streams.
func (w *sessionRecorder) Flush() {
	w.record()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack is http.Hijacker of the underlying response.
func (w *sessionRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap returns the underlying response, for http.ResponseController.
func (w *sessionRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
