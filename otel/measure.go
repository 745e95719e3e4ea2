package otel

import (
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// A measureKey is what the attributes of an operation measurement depend
// on. Measurements with equal keys share one attribute set, made once:
// making a set sorts and copies the attributes, the larger part of the
// cost of a measurement.
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

// maxCachedSets bounds the attribute sets a direction keeps; measurements
// past it make their set each time. The key has no identifiers, so only
// many distinct tool or prompt names, or many server addresses, reach it.
const maxCachedSets = 1024

// setCache keeps the record options of the measurements of one direction,
// by key.
type setCache struct {
	mu   sync.RWMutex
	sets map[measureKey][]metric.RecordOption
}

// options returns the record options carrying the attributes for key,
// made by build when they are not cached.
func (c *setCache) options(key measureKey, build func() []attribute.KeyValue) []metric.RecordOption {
	c.mu.RLock()
	opts, ok := c.sets[key]
	c.mu.RUnlock()
	if ok {
		return opts
	}
	opts = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(build()...))}
	c.mu.Lock()
	if c.sets == nil {
		c.sets = make(map[measureKey][]metric.RecordOption)
	}
	if len(c.sets) < maxCachedSets {
		c.sets[key] = opts
	}
	c.mu.Unlock()
	return opts
}
