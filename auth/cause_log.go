package auth

import (
	"log/slog"
	"net/http"
	"sync"
)

// maxCauses bounds the distinct causes a causeLog remembers; when full it
// forgets them all, so a cause is logged again at worst once per that
// many others.
const maxCauses = 64

// A causeLog logs each distinct cause of a failure once, to
// slog.Default: what RequireBearerToken does with the causes of its 503s
// when no Logger is set, so that a misconfigured issuer shows in the log
// without a line per request.
type causeLog struct {
	mu   sync.Mutex
	seen map[string]bool
}

// logOnce logs err, the cause of a 503 for r, unless a cause with the same
// text was logged already.
func (c *causeLog) logOnce(r *http.Request, err error) {
	text := err.Error()
	c.mu.Lock()
	if c.seen[text] {
		c.mu.Unlock()
		return
	}
	if c.seen == nil || len(c.seen) >= maxCauses {
		c.seen = make(map[string]bool)
	}
	c.seen[text] = true
	c.mu.Unlock()
	slog.Default().Warn("auth: token verification unavailable (logged once per cause; set RequireBearerTokenOptions.Logger for every failure)",
		"method", r.Method, "path", r.URL.Path, "error", text)
}
