package auth

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-json-experiment/json/jsontext"
)

// Defaults of the JWKS cache.
const (
	// DefaultMaxKeys is how many keys of a JWKS are kept.
	DefaultMaxKeys = 64
	// DefaultMaxJWKSBytes bounds a JWKS document.
	DefaultMaxJWKSBytes = 1 << 20
	// DefaultFetchTimeout bounds each fetch of metadata or JWKS.
	DefaultFetchTimeout = 5 * time.Second
	// DefaultRefreshInterval is the shortest time between two JWKS fetches
	// caused by tokens signed with an unknown key.
	DefaultRefreshInterval = 30 * time.Second
	// failureBackoff is how long after a failed fetch requests fail fast
	// instead of fetching again.
	failureBackoff = 2 * time.Second
)

// A jwk is one usable public key of a key set.
type jwk struct {
	kid string
	alg string // the JWK's own "alg", if it has one
	key crypto.PublicKey
}

// keySet is an immutable snapshot of a JWKS.
type keySet struct {
	keys    []jwk
	fetched time.Time
}

// find returns the keys that may verify a token signed with alg by kid:
// the key with that kid, or, for a token without kid, every key.
func (ks *keySet) find(kid, alg string, fn func(crypto.PublicKey) bool) bool {
	for i := range ks.keys {
		k := &ks.keys[i]
		if (kid != "" && k.kid != kid) || (k.alg != "" && k.alg != alg) || !keyFits(alg, k.key) {
			continue
		}
		if fn(k.key) {
			return true
		}
	}
	return false
}

func (ks *keySet) hasKid(kid string) bool {
	for i := range ks.keys {
		if ks.keys[i].kid == kid {
			return true
		}
	}
	return false
}

// jwksCache holds an issuer's keys: fetched on first use (after
// discovering jwks_uri from the issuer's metadata if need be), and fetched
// again when a token names an unknown key, at most once per refresh
// interval. One fetch runs at a time; callers wait for it no longer than
// their context and the fetch timeout allow.
type jwksCache struct {
	issuer   string
	hc       *http.Client
	timeout  time.Duration
	interval time.Duration
	maxKeys  int
	maxBytes int64
	now      func() time.Time

	cur atomic.Pointer[keySet]

	mu          sync.Mutex
	jwksURL     string
	fetching    chan struct{} // closed when the fetch in flight ends
	lastAttempt time.Time
	lastErr     error
	fetches     atomic.Int64 // for tests
}

// errUnknownKey reports a token signed by a key the issuer does not list.
var errUnknownKey = invalid("token signed by an unknown key")

// verify checks jws's signature against the issuer's keys.
func (c *jwksCache) verify(ctx context.Context, jws *compactJWS) error {
	alg, kid := jws.header.Alg, jws.header.Kid
	check := func(k crypto.PublicKey) bool { return jws.verifySignature(alg, k) }
	ks := c.cur.Load()
	if ks != nil {
		if ks.find(kid, alg, check) {
			return nil
		}
		if kid == "" || ks.hasKid(kid) {
			return invalid("token signature is invalid")
		}
	}
	// No keys yet, or an unknown kid: maybe the issuer rotated its keys.
	ks, err := c.refresh(ctx, ks)
	if err != nil {
		return err
	}
	if ks.find(kid, alg, check) {
		return nil
	}
	if kid == "" || ks.hasKid(kid) {
		return invalid("token signature is invalid")
	}
	return errUnknownKey
}

// refresh fetches the key set again unless old is younger than the
// refresh interval, and returns the newest set.
func (c *jwksCache) refresh(ctx context.Context, old *keySet) (*keySet, error) {
	c.mu.Lock()
	if cur := c.cur.Load(); cur != old && cur != nil {
		c.mu.Unlock()
		return cur, nil // another caller refreshed meanwhile
	}
	now := c.now()
	if old != nil && now.Sub(old.fetched) < c.interval && c.fetching == nil {
		c.mu.Unlock()
		return old, nil // rate limited: the unknown kid stays unknown
	}
	if c.fetching == nil {
		if c.lastErr != nil && now.Sub(c.lastAttempt) < failureBackoff {
			err := c.lastErr
			c.mu.Unlock()
			if old != nil {
				return old, nil
			}
			return nil, err
		}
		c.fetching = make(chan struct{})
		c.lastAttempt = now
		go c.fetch(c.fetching)
	}
	done := c.fetching
	c.mu.Unlock()

	t := time.NewTimer(c.timeout)
	defer t.Stop()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, unavailable("token verification interrupted", ctx.Err())
	case <-t.C:
		return nil, unavailable("signing keys unavailable", errors.New("fetch timed out"))
	}
	c.mu.Lock()
	err := c.lastErr
	c.mu.Unlock()
	if ks := c.cur.Load(); ks != nil && (err == nil || old != nil) {
		return ks, nil
	}
	return nil, err
}

// fetch gets the key set (discovering its URL first if need be) and
// publishes it, then closes done. It is bounded by the fetch timeout.
func (c *jwksCache) fetch(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	c.fetches.Add(1)
	ks, err := c.load(ctx)
	c.mu.Lock()
	if err != nil {
		c.lastErr = unavailable("signing keys unavailable", err)
	} else {
		c.lastErr = nil
		c.cur.Store(ks)
	}
	c.fetching = nil
	c.mu.Unlock()
	close(done)
}

func (c *jwksCache) load(ctx context.Context) (*keySet, error) {
	c.mu.Lock()
	u := c.jwksURL
	c.mu.Unlock()
	if u == "" {
		md, err := fetchIssuerMetadata(ctx, c.hc, c.issuer)
		if err != nil {
			return nil, err
		}
		if md.JWKSURI == "" {
			return nil, fmt.Errorf("metadata of %s has no jwks_uri", c.issuer)
		}
		if err := checkFetchURL(md.JWKSURI, c.issuer); err != nil {
			return nil, err
		}
		u = md.JWKSURI
		c.mu.Lock()
		c.jwksURL = u
		c.mu.Unlock()
	}
	var doc struct {
		Keys []jsontext.Value `json:"keys"`
	}
	if _, err := getJSON(ctx, c.hc, u, c.maxBytes, &doc); err != nil {
		return nil, err
	}
	ks := &keySet{fetched: c.now()}
	for _, raw := range doc.Keys {
		if len(ks.keys) == c.maxKeys {
			break
		}
		if k, ok := parseVerificationKey(raw); ok {
			ks.keys = append(ks.keys, k)
		}
	}
	if len(ks.keys) == 0 {
		return nil, fmt.Errorf("JWKS at %s has no usable signing key", u)
	}
	return ks, nil
}

// parseVerificationKey parses one JWK of a key set, keeping it if it is a
// public signing key of a supported type.
func parseVerificationKey(raw jsontext.Value) (jwk, bool) {
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(raw); err != nil || !k.Valid() || !k.IsPublic() {
		return jwk{}, false
	}
	if k.Use != "" && k.Use != "sig" {
		return jwk{}, false
	}
	for _, alg := range defaultAlgs {
		if keyFits(alg, k.Key) && (k.Algorithm == "" || k.Algorithm == alg) {
			return jwk{kid: k.KeyID, alg: k.Algorithm, key: k.Key}, true
		}
	}
	return jwk{}, false
}
