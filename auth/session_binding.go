package auth

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
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
	principal principal
	lastUsed  time.Time
	pinned    bool // an HTTP+SSE session: lives as long as its stream, never idles out
}

func newSessionBindings(max int, idle time.Duration) *sessionBindings {
	return &sessionBindings{max: max, idle: idle, m: make(map[string]*binding)}
}

// check reports whether session id may be used by principal: it must have
// been bound to it and not be idle too long.
func (sb *sessionBindings) check(id string, p principal, now time.Time) bool {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	b, ok := sb.m[id]
	if !ok {
		return false
	}
	if sb.idle > 0 && !b.pinned && now.Sub(b.lastUsed) > sb.idle {
		delete(sb.m, id)
		return false
	}
	if b.principal != p {
		return false
	}
	b.lastUsed = now
	return true
}

// bind records that principal created session id. When the table is full
// it drops idle sessions, then a sixteenth of the others (in map order), so
// that inserting stays cheap; a dropped session's client must initialize
// again.
func (sb *sessionBindings) bind(id string, p principal, now time.Time) {
	sb.bindPinned(id, p, now, false)
}

func (sb *sessionBindings) bindPinned(id string, p principal, now time.Time, pinned bool) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if _, ok := sb.m[id]; !ok && len(sb.m) >= sb.max {
		sb.evictLocked(now)
	}
	sb.m[id] = &binding{principal: p, lastUsed: now, pinned: pinned}
}

func (sb *sessionBindings) evictLocked(now time.Time) {
	if sb.idle > 0 {
		for id, b := range sb.m {
			if !b.pinned && now.Sub(b.lastUsed) > sb.idle {
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

// sseKey is the binding key of an HTTP+SSE (2024-11-05) session, whose id
// travels in the sessionId query parameter of the POSTs.
func sseKey(id string) string { return "sse\x00" + id }

// maxEndpointScan bounds how much of an SSE stream is read to find its
// endpoint event.
const maxEndpointScan = 4 << 10

// sseRecorder wraps the response to a GET that may open an HTTP+SSE
// session and binds the session id of the stream's first event,
// "endpoint", whose data is the URL of the session's POSTs.
type sseRecorder struct {
	http.ResponseWriter
	bind func(id string)
	done bool
	buf  []byte
	id   string
}

func (w *sseRecorder) scan(b []byte) {
	if w.done {
		return
	}
	if ct := w.Header().Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "text/event-stream") {
		w.done = true
		return
	}
	w.buf = append(w.buf, b...)
	if id, ok := endpointSessionID(w.buf); ok {
		w.done, w.buf, w.id = true, nil, id
		if id != "" {
			w.bind(id)
		}
		return
	}
	if len(w.buf) > maxEndpointScan {
		w.done, w.buf = true, nil
	}
}

// endpointSessionID finds a complete endpoint event in an SSE stream's
// beginning and returns the sessionId of its URL (ok is false until the
// event is complete).
func endpointSessionID(b []byte) (id string, ok bool) {
	s := string(b)
	end := strings.Index(s, "\n\n")
	if end < 0 {
		return "", false
	}
	var event, data string
	for _, line := range strings.Split(s[:end], "\n") {
		line = strings.TrimSuffix(line, "\r")
		if v, ok := strings.CutPrefix(line, "event:"); ok {
			event = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "data:"); ok {
			data = strings.TrimSpace(v)
		}
	}
	if event != "endpoint" {
		return "", true
	}
	u, err := url.Parse(data)
	if err != nil {
		return "", true
	}
	return u.Query().Get("sessionId"), true
}

// Write binds the session of the endpoint event, then writes b.
func (w *sseRecorder) Write(b []byte) (int, error) {
	w.scan(b)
	return w.ResponseWriter.Write(b)
}

// Flush flushes the underlying response.
func (w *sseRecorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the underlying response, for http.ResponseController.
func (w *sseRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
