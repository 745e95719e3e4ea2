// Package shared is what several pkgdocs instances behind one load balancer
// share: the packages one of them read from a registry (and the not-found
// answers it got), so that the others answer without asking the registry,
// and a lock per request, so that concurrent first requests on several
// instances make one upstream fetch.
//
// Store is the seam. Nop, the default, shares nothing (one instance, as
// before); Redis shares through a Redis server. A store that fails never
// fails an answer: the caller then answers from its own caches and the
// registries.
package shared

import (
	"context"
	"errors"
	"time"
)

// ErrUnavailable reports a shared store that could not be used (down,
// unreachable, or skipped for a while after a failure). Callers fall back
// to fetching alone.
var ErrUnavailable = errors.New("shared store unavailable")

// Store keeps values that several instances share, and serialises their
// fetches of the same key. Values read back are data another process
// wrote: callers decode them strictly and bound their size.
type Store interface {
	// Get returns the value stored under key, or nil when there is none.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores val under key for ttl.
	Set(ctx context.Context, key string, val []byte, ttl time.Duration) error
	// Once calls fetch while holding key's lock, unless another instance
	// holds it: then Once waits until that instance is done, or has died
	// and its lock expired, and calls found, which reports whether the
	// answer is now in the store; if it is not, Once takes the lock over
	// and calls fetch. found is also called once right after the wait
	// starts. An error means the store failed, the wait ran out, or the
	// holder finished without storing an answer, before fetch was called:
	// the caller then fetches alone.
	Once(ctx context.Context, key string, found func(context.Context) bool, fetch func(context.Context)) error
}

// Nop is the Store of a single instance: Get finds nothing, Set keeps
// nothing, Once calls fetch at once.
type Nop struct{}

// Get finds nothing.
func (Nop) Get(context.Context, string) ([]byte, error) { return nil, nil }

// Set keeps nothing.
func (Nop) Set(context.Context, string, []byte, time.Duration) error { return nil }

// Once calls fetch.
func (Nop) Once(ctx context.Context, _ string, _ func(context.Context) bool, fetch func(context.Context)) error {
	fetch(ctx)
	return nil
}
