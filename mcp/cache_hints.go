package mcp

import "time"

// A CacheHint tells 2026-07-28 clients how long, and how widely, they may
// cache a result: the ttlMs and cacheScope members of list results,
// resources/read and server/discover.
type CacheHint struct {
	// TTL is how long the result stays fresh. Zero means immediately stale:
	// the client may re-fetch every time.
	TTL time.Duration
	// Scope is CacheScopePrivate (the default: caches must not be shared
	// across authorization contexts) or CacheScopePublic.
	Scope string
}

// setCacheHints fills the cache hints of a 2026-07-28 cacheable result of
// method, unless its handler already set them (per-item hints): from
// ServerOptions.CacheHints[method], else CacheHints[""], else immediately
// stale and private.
func (s *Server) setCacheHints(method string, ttl **int64, scope *string) {
	hint, ok := s.opts.CacheHints[method]
	if !ok {
		hint = s.opts.CacheHints[""]
	}
	if *ttl == nil {
		ms := hint.TTL.Milliseconds()
		if ms < 0 {
			ms = 0
		}
		*ttl = &ms
	}
	if *scope == "" {
		*scope = hint.Scope
		if *scope == "" {
			*scope = CacheScopePrivate
		}
	}
}
