package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// DefaultTokenCacheSize is how many verified tokens a verifier remembers
// by default.
const DefaultTokenCacheSize = 4096

// tokenCache remembers tokens already verified, keyed by their SHA-256
// hash (the cache never holds a token itself), until the earlier of their
// expiry and the cache's own limit. It is bounded in size.
type tokenCache struct {
	max    int
	maxTTL time.Duration // > 0: entries live at most this long

	mu sync.RWMutex
	m  map[[32]byte]cachedToken
}

type cachedToken struct {
	ti    *TokenInfo
	err   error // a refusal remembered for a short while, or nil
	until time.Time
}

// newTokenCache returns a cache of max entries, or nil (no cache) when max
// is negative.
func newTokenCache(max int, maxTTL time.Duration) *tokenCache {
	if max < 0 {
		return nil
	}
	if max == 0 {
		max = DefaultTokenCacheSize
	}
	return &tokenCache{max: max, maxTTL: maxTTL, m: make(map[[32]byte]cachedToken)}
}

func tokenKey(token string) [32]byte { return sha256.Sum256(bytesOf(token)) }

// get returns the TokenInfo of a token verified before and still valid at
// now, or the error of a token refused recently.
func (c *tokenCache) get(key [32]byte, now time.Time) (cachedToken, bool) {
	if c == nil {
		return cachedToken{}, false
	}
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return cachedToken{}, false
	}
	return e, true
}

// putRefusal remembers that a token was refused with err, for ttl.
func (c *tokenCache) putRefusal(key [32]byte, err error, ttl time.Duration, now time.Time) {
	if c == nil || ttl <= 0 {
		return
	}
	c.store(key, cachedToken{err: err, until: now.Add(ttl)}, now)
}

// put remembers ti until exp (or the cache's limit, if sooner).
func (c *tokenCache) put(key [32]byte, ti *TokenInfo, exp, now time.Time) {
	if c == nil {
		return
	}
	until := exp
	if c.maxTTL > 0 && (until.IsZero() || until.After(now.Add(c.maxTTL))) {
		until = now.Add(c.maxTTL)
	}
	if until.IsZero() || !now.Before(until) {
		return
	}
	c.store(key, cachedToken{ti: ti, until: until}, now)
}

func (c *tokenCache) store(key [32]byte, e cachedToken, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		for k, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		drop := max(1, c.max/16)
		for k := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, k)
			if drop--; drop == 0 {
				break
			}
		}
	}
	c.m[key] = e
}

func (c *tokenCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
