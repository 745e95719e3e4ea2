package otel

import "sync"

// A measureKey is what the shared attributes of an operation depend on.
// Operations with equal keys share one attribute set for their
// measurements and one attribute slice for their spans (an opStatic), made
// once and looked up once per operation: making a set sorts and copies the
// attributes, the larger part of the cost of a measurement.
type measureKey struct {
	method, target  string
	errType, code   string
	protocolVersion string
	transport       string
	protocolName    string
	protocolVer     string
	address         string
	port            int
}

// maxCached bounds the entries a cache keeps; operations past it make
// their attributes each time. The key has no identifiers, so only many
// distinct tool or prompt names, or many server addresses, reach it.
const maxCached = 1024

// A cache keeps what operations with equal keys share (opStatic).
type cache[V any] struct {
	mu      sync.RWMutex
	entries map[measureKey]V
}

// get returns the value for key, made by build when it is not cached.
func (c *cache[V]) get(key measureKey, build func() V) V {
	c.mu.RLock()
	v, ok := c.entries[key]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = build()
	c.mu.Lock()
	if c.entries == nil {
		c.entries = make(map[measureKey]V)
	}
	if len(c.entries) < maxCached {
		c.entries[key] = v
	}
	c.mu.Unlock()
	return v
}
