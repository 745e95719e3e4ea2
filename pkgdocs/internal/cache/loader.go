package cache

import (
	"context"
	"time"

	"golang.org/x/sync/singleflight"
)

// Policy tells a Loader how long to keep results.
type Policy struct {
	TTL         time.Duration // for successful results
	NegativeTTL time.Duration // for permanent errors (not found); 0 means not cached
	// Transient reports errors that must never be cached (timeouts, 5xx, 429).
	Transient func(error) bool
	// Weight estimates the size of a value; nil means 1.
	Weight func(any) int64
	// TTLFor, when set, may shorten (or lengthen) TTL for one value, e.g. a
	// degraded answer built while part of the upstream was failing. A
	// result of 0 or less keeps TTL.
	TTLFor func(any) time.Duration
}

// Loader memoises expensive loads: one in-flight load per key
// (singleflight), fresh results from memory, permanent errors for a short
// while, and stale values when a reload fails transiently.
type Loader struct {
	lru   *LRU[string, result]
	group singleflight.Group
}

type result struct {
	val any
	err error
}

// NewLoader returns a Loader whose memory holds at most maxWeight units.
func NewLoader(maxWeight int64) *Loader {
	return &Loader{lru: NewLRU[string, result](maxWeight)}
}

// Load returns the cached value for key or calls load. stale is true when a
// transient failure made Load return an expired value instead of the error.
func (l *Loader) Load(ctx context.Context, key string, p Policy, load func(context.Context) (any, error)) (val any, stale bool, err error) {
	if r, fresh, ok := l.lru.Peek(key); ok && fresh {
		return r.val, false, r.err
	}
	ch := l.group.DoChan(key, func() (any, error) {
		// Detach from the first caller's cancellation: other callers share
		// this load. The loader's own deadline comes from its HTTP client.
		v, err := load(context.WithoutCancel(ctx))
		switch {
		case err == nil:
			w := int64(1)
			if p.Weight != nil {
				w = p.Weight(v)
			}
			ttl := p.TTL
			if p.TTLFor != nil {
				if d := p.TTLFor(v); d > 0 {
					ttl = d
				}
			}
			l.lru.Set(key, result{val: v}, w, ttl)
		case p.Transient != nil && p.Transient(err):
			// never cached
		case p.NegativeTTL > 0:
			l.lru.Set(key, result{err: err}, 1, p.NegativeTTL)
		}
		return v, err
	})
	select {
	case <-ctx.Done():
		return nil, false, ctx.Err()
	case r := <-ch:
		if r.Err != nil && p.Transient != nil && p.Transient(r.Err) {
			if old, _, ok := l.lru.Peek(key); ok && old.err == nil {
				return old.val, true, nil
			}
		}
		return r.Val, false, r.Err
	}
}

// Has reports whether key holds a result (a value or a permanent error)
// that has not expired, without loading it: a caller may then skip a
// slower source it would try before Load.
func (l *Loader) Has(key string) bool {
	_, fresh, ok := l.lru.Peek(key)
	return ok && fresh
}

// Len reports how many entries are held (for tests and metrics).
func (l *Loader) Len() int { return l.lru.Len() }
