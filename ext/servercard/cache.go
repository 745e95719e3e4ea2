package servercard

import (
	"context"
	"sync"
	"time"
)

// maxCacheEntries bounds the cards a Cache keeps; past it, the entry that
// went stale first is dropped.
const maxCacheEntries = 1024

// A Cache fetches cards as the extension asks clients to: a card is
// reused while its Cache-Control max-age lasts, and once stale it is
// asked for again with If-None-Match, so an unchanged card costs a 304
// and no body. The zero Cache is ready to use; it is safe for concurrent
// use.
type Cache struct {
	// Options are the options of every fetch; their IfNoneMatch is
	// ignored. Set them before the first Fetch.
	Options *FetchOptions

	mu      sync.Mutex
	entries map[string]*cacheEntry
	now     func() time.Time // time.Now unless a test sets it
}

type cacheEntry struct {
	card    *Fetched
	expires time.Time
}

// Fetch returns the card at cardURL: from the cache while it is fresh,
// otherwise fetched (see Fetch), revalidated with its ETag when the cache
// has one. A card that fails to fetch is not cached, and the error is
// returned even when a stale card is held.
func (c *Cache) Fetch(ctx context.Context, cardURL string) (*Fetched, error) {
	now := c.clock()
	c.mu.Lock()
	e := c.entries[cardURL]
	c.mu.Unlock()
	if e != nil && now.Before(e.expires) {
		return e.card, nil
	}
	var opts FetchOptions
	if c.Options != nil {
		opts = *c.Options
	}
	opts.IfNoneMatch = ""
	if e != nil && e.card.ETag != "" {
		opts.IfNoneMatch = e.card.ETag
	}
	f, err := Fetch(ctx, cardURL, &opts)
	if err != nil {
		return nil, err
	}
	if f.NotModified {
		kept := *e.card
		kept.MaxAge = f.MaxAge
		f = &kept
	}
	c.store(cardURL, f, now)
	return f, nil
}

// store keeps f until its max-age has passed; a card without one is not
// kept.
func (c *Cache) store(cardURL string, f *Fetched, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.MaxAge <= 0 && f.ETag == "" {
		delete(c.entries, cardURL)
		return
	}
	if c.entries == nil {
		c.entries = map[string]*cacheEntry{}
	}
	if _, ok := c.entries[cardURL]; !ok && len(c.entries) >= maxCacheEntries {
		c.evictOldest()
	}
	c.entries[cardURL] = &cacheEntry{card: f, expires: now.Add(f.MaxAge)}
}

// evictOldest drops the entry that expires first.
func (c *Cache) evictOldest() {
	var oldest string
	var at time.Time
	for k, e := range c.entries {
		if oldest == "" || e.expires.Before(at) {
			oldest, at = k, e.expires
		}
	}
	delete(c.entries, oldest)
}

func (c *Cache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}
