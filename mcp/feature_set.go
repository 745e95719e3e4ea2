package mcp

import (
	"encoding/base64"
	"slices"
	"strings"
	"sync"
)

// DefaultPageSize is the number of items in a page of a list result when
// ServerOptions.PageSize is zero.
const DefaultPageSize = 1000

// A featureSet holds a server's features of one kind (tools, prompts,
// resources, templates), keyed by a unique id and kept sorted by it, so
// lists can be paginated with keyset cursors: a cursor names the last key
// of the previous page, and the next page starts after it. Pages stay
// consistent while features are added and removed. The zero value is an
// empty set; it is safe for concurrent use.
type featureSet[T any] struct {
	mu    sync.RWMutex
	items map[string]T
	keys  []string // sorted
}

// add adds or replaces items; key gives each item's id.
func (fs *featureSet[T]) add(key func(T) string, items ...T) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.items == nil {
		fs.items = make(map[string]T)
	}
	for _, it := range items {
		k := key(it)
		if _, ok := fs.items[k]; !ok {
			i, _ := slices.BinarySearch(fs.keys, k)
			fs.keys = slices.Insert(fs.keys, i, k)
		}
		fs.items[k] = it
	}
}

// remove removes the items with the given keys and reports whether any was
// present.
func (fs *featureSet[T]) remove(keys ...string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	removed := false
	for _, k := range keys {
		if _, ok := fs.items[k]; ok {
			delete(fs.items, k)
			i, _ := slices.BinarySearch(fs.keys, k)
			fs.keys = slices.Delete(fs.keys, i, i+1)
			removed = true
		}
	}
	return removed
}

// get returns the item with key.
func (fs *featureSet[T]) get(key string) (T, bool) {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	it, ok := fs.items[key]
	return it, ok
}

// len returns the number of items.
func (fs *featureSet[T]) len() int {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	return len(fs.keys)
}

// all returns every item in key order.
func (fs *featureSet[T]) all() []T {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	out := make([]T, len(fs.keys))
	for i, k := range fs.keys {
		out[i] = fs.items[k]
	}
	return out
}

// page returns up to size items after cursor, and the cursor of the next
// page ("" on the last page). An undecodable cursor is an invalid-params
// error.
func (fs *featureSet[T]) page(cursor string, size int) ([]T, string, error) {
	after := ""
	if cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || len(raw) == 0 || raw[0] != 'k' {
			return nil, "", newError(CodeInvalidParams, "invalid cursor %q", cursor)
		}
		after = string(raw[1:])
	}
	if size <= 0 {
		size = DefaultPageSize
	}
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	start := 0
	if cursor != "" {
		start, _ = slices.BinarySearchFunc(fs.keys, after, func(k, target string) int {
			if strings.Compare(k, target) <= 0 {
				return -1
			}
			return 1
		})
	}
	end := min(start+size, len(fs.keys))
	out := make([]T, 0, end-start)
	for _, k := range fs.keys[start:end] {
		out = append(out, fs.items[k])
	}
	next := ""
	if end < len(fs.keys) {
		next = base64.RawURLEncoding.EncodeToString([]byte("k" + fs.keys[end-1]))
	}
	return out, next, nil
}
