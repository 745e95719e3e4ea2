package shared

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// health follows whether Redis answers. It logs the first failure after a
// success and the first success after a failure, nothing in between, and
// after a failure lets requests skip Redis for retryAfter, so that an
// outage costs each answer no round trip to a server that is not there.
type health struct {
	log        *slog.Logger
	retryAfter time.Duration
	now        func() time.Time

	mu   sync.Mutex
	down bool
	next time.Time // while down, Redis is skipped until then
}

// allow reports whether Redis should be tried now.
func (h *health) allow() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.down && h.now().Before(h.next) {
		return fmt.Errorf("%w: skipped after a failure", ErrUnavailable)
	}
	return nil
}

// report records the outcome of a command and returns the error to give
// the caller: nil for success and for a missing key, ErrUnavailable
// wrapping anything else. The caller's own cancellation says nothing about
// Redis and is returned as it is.
func (h *health) report(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil || errors.Is(err, goredis.Nil) {
		if h.down {
			h.down = false
			h.log.Info("pkgdocs: Redis is reachable again; sharing answers with the other instances")
		}
		return nil
	}
	if !h.down {
		h.down = true
		h.log.Warn("pkgdocs: Redis is unreachable; answering from this instance's caches and the registries until it is back", "err", err)
	}
	h.next = h.now().Add(h.retryAfter)
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}
