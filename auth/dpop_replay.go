package auth

import (
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"sync"
	"time"
)

// A DPoPReplayCache remembers the DPoP proofs a server accepted, so that
// each proof is accepted once (RFC 9449 section 11.1). Instances of a
// server behind a load balancer share one, so that a proof accepted by one
// instance is refused when replayed to another; the default,
// MemoryDPoPReplayCache, remembers within one process.
type DPoPReplayCache interface {
	// Seen records key until expires and reports whether it was already
	// recorded and not yet expired (a key recorded keeps its first
	// expiry). It must be atomic: of concurrent calls
	// with one key, one alone reports false. Keys are 43 characters of
	// base64url (a SHA-256 hash of the proof's id and its key's
	// thumbprint), so clients cannot choose them and different clients'
	// ids never collide. An error refuses the request with 503 and
	// Retry-After: a proof is never accepted unchecked.
	Seen(ctx context.Context, key string, expires time.Time) (replayed bool, err error)
}

// errReplayCacheFull is the error of a MemoryDPoPReplayCache holding as
// many unexpired keys as it may.
var errReplayCacheFull = errors.New("auth: DPoP replay cache is full")

// dpopReplayKey returns the key of a proof in a DPoPReplayCache: the
// base64url SHA-256 of the thumbprint of the proof's key and its jti.
func dpopReplayKey(jkt, jti string) string {
	h := sha256.New()
	h.Write([]byte(jkt))
	h.Write([]byte{0})
	h.Write([]byte(jti))
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// MemoryDPoPReplayCache is a DPoPReplayCache in the memory of one process,
// bounded in size. It is safe for concurrent use.
type MemoryDPoPReplayCache struct {
	max int
	now func() time.Time

	mu   sync.Mutex
	seen map[string]struct{}
	exp  expiryHeap
}

var _ DPoPReplayCache = (*MemoryDPoPReplayCache)(nil)

// NewMemoryDPoPReplayCache returns a MemoryDPoPReplayCache remembering at
// most maxKeys keys (DefaultDPoPReplayCacheSize if maxKeys <= 0). When it
// holds that many unexpired keys, Seen returns an error (so requests get
// 503) rather than forget a key too soon.
func NewMemoryDPoPReplayCache(maxKeys int) *MemoryDPoPReplayCache {
	if maxKeys <= 0 {
		maxKeys = DefaultDPoPReplayCacheSize
	}
	return &MemoryDPoPReplayCache{max: maxKeys, now: time.Now, seen: make(map[string]struct{})}
}

// Seen records key until expires and reports whether it was already
// recorded and not yet expired. Keys expired by now are forgotten first.
func (c *MemoryDPoPReplayCache) Seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.exp) > 0 && !now.Before(c.exp[0].exp) {
		delete(c.seen, heap.Pop(&c.exp).(expiryEntry).key)
	}
	if _, ok := c.seen[key]; ok {
		return true, nil
	}
	if !now.Before(expires) {
		return false, nil // expired already: nothing to remember
	}
	if len(c.seen) >= c.max {
		return false, errReplayCacheFull
	}
	c.seen[key] = struct{}{}
	heap.Push(&c.exp, expiryEntry{key: key, exp: expires})
	return false, nil
}

// expiryEntry is a key of a MemoryDPoPReplayCache and its expiry.
type expiryEntry struct {
	key string
	exp time.Time
}

// expiryHeap is a min-heap of keys by expiry (container/heap).
type expiryHeap []expiryEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].exp.Before(h[j].exp) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiryEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = expiryEntry{}
	*h = old[:len(old)-1]
	return e
}
