// Package cache holds pkgdocs' caches: a weighted in-memory LRU with
// per-entry expiry, a loader that adds singleflight and negative caching on
// top, and an optional on-disk store that survives restarts.
package cache

import (
	"container/list"
	"sync"
	"time"
)

// LRU is a weighted least-recently-used cache with per-entry expiry. Expired
// entries stay until evicted so that they can be served as stale content.
// It is safe for concurrent use.
type LRU[K comparable, V any] struct {
	mu        sync.Mutex
	maxWeight int64
	weight    int64
	ll        *list.List
	items     map[K]*list.Element
	now       func() time.Time
}

type entry[K comparable, V any] struct {
	key     K
	val     V
	weight  int64
	expires time.Time
}

// NewLRU returns a cache holding at most maxWeight units (bytes, usually).
func NewLRU[K comparable, V any](maxWeight int64) *LRU[K, V] {
	return &LRU[K, V]{maxWeight: maxWeight, ll: list.New(), items: map[K]*list.Element{}, now: time.Now}
}

// Set stores val under key for ttl. An entry heavier than the whole cache is
// not stored.
func (c *LRU[K, V]) Set(key K, val V, weight int64, ttl time.Duration) {
	if weight < 1 {
		weight = 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.removeElement(el)
	}
	if weight > c.maxWeight {
		return
	}
	el := c.ll.PushFront(&entry[K, V]{key: key, val: val, weight: weight, expires: c.now().Add(ttl)})
	c.items[key] = el
	c.weight += weight
	for c.weight > c.maxWeight {
		c.removeElement(c.ll.Back())
	}
}

// Get returns the fresh value under key.
func (c *LRU[K, V]) Get(key K) (V, bool) {
	v, fresh, ok := c.Peek(key)
	if !ok || !fresh {
		var zero V
		return zero, false
	}
	return v, true
}

// Peek returns the value under key even if it expired, and whether it is
// still fresh. A hit counts as a use.
func (c *LRU[K, V]) Peek(key K) (val V, fresh, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return val, false, false
	}
	c.ll.MoveToFront(el)
	e := el.Value.(*entry[K, V])
	return e.val, c.now().Before(e.expires), true
}

// Delete removes key.
func (c *LRU[K, V]) Delete(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.removeElement(el)
	}
}

// Len reports the number of entries.
func (c *LRU[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Weight reports the total weight held.
func (c *LRU[K, V]) Weight() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.weight
}

func (c *LRU[K, V]) removeElement(el *list.Element) {
	e := c.ll.Remove(el).(*entry[K, V])
	delete(c.items, e.key)
	c.weight -= e.weight
}
