package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *memCache) Get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memCache) Put(k string, v []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
	return nil
}

func TestCacheTTLs(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/gone":
			http.NotFound(w, r)
		case "/flaky":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.Write([]byte("body of " + r.URL.Path))
		}
	}))
	defer srv.Close()
	now := time.Unix(1_800_000_000, 0)
	c := New(&Options{Retries: -1, Now: func() time.Time { return now }})
	c.SetCache(&memCache{m: map[string][]byte{}})
	ctx := context.Background()
	get := func(p string) error { _, err := c.Get(ctx, srv.URL+p); return err }
	for _, p := range []string{"/m/@v/list", "/x/-/x-1.0.0.tgz", "/gone", "/flaky"} {
		get(p)
	}
	if hits.Load() != 4 {
		t.Fatalf("%d requests", hits.Load())
	}
	hits.Store(0)
	for _, p := range []string{"/m/@v/list", "/x/-/x-1.0.0.tgz", "/gone"} {
		get(p)
	}
	if err := get("/gone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("cached not-found: %v", err)
	}
	if err := get("/flaky"); !IsTransient(err) {
		t.Fatalf("flaky: %v", err)
	}
	if hits.Load() != 1 { // only /flaky: transient failures are never kept
		t.Fatalf("warm: %d requests", hits.Load())
	}
	hits.Store(0)
	now = now.Add(NegativeTTL + time.Second)
	get("/gone")
	get("/m/@v/list")
	if hits.Load() != 1 {
		t.Fatalf("after the negative TTL: %d requests, want 1 (/gone)", hits.Load())
	}
	hits.Store(0)
	now = now.Add(MutableTTL)
	get("/m/@v/list")
	get("/x/-/x-1.0.0.tgz")
	if hits.Load() != 1 {
		t.Fatalf("after the mutable TTL: %d requests, want 1 (the list)", hits.Load())
	}
}

func TestImmutable(t *testing.T) {
	for u, want := range map[string]bool{
		"https://proxy.golang.org/m/@v/v1.2.3.zip":                true,
		"https://proxy.golang.org/m/@v/v1.2.3.mod":                true,
		"https://proxy.golang.org/m/@v/list":                      false,
		"https://proxy.golang.org/m/@latest":                      false,
		"https://registry.npmjs.org/express/5.3.0":                true,
		"https://registry.npmjs.org/express/latest":               false,
		"https://registry.npmjs.org/express":                      false,
		"https://registry.npmjs.org/express/-/express-5.3.0.tgz":  true,
		"https://static.crates.io/crates/serde/serde-1.0.0.crate": true,
		"https://docs.rs/crate/serde/1.0.0/json.gz":               true,
		"https://pypi.org/pypi/requests/json":                     false,
	} {
		pu, _ := url.Parse(u)
		if got := Immutable(pu); got != want {
			t.Errorf("Immutable(%s) = %v", u, got)
		}
	}
}

func TestOffline(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); w.Write([]byte("x")) }))
	defer srv.Close()
	c := New(&Options{Retries: -1})
	c.SetCache(&memCache{m: map[string][]byte{}})
	if _, err := c.Get(context.Background(), srv.URL+"/a/-/a-1.0.0.tgz"); err != nil {
		t.Fatal(err)
	}
	c.SetOffline(true)
	if _, err := c.Get(context.Background(), srv.URL+"/a/-/a-1.0.0.tgz"); err != nil {
		t.Fatalf("cached answer offline: %v", err)
	}
	if _, err := c.Get(context.Background(), srv.URL+"/b"); !errors.Is(err, ErrOffline) || IsTransient(err) {
		t.Fatalf("uncached offline: %v", err)
	}
	if hits.Load() != 1 {
		t.Fatalf("%d requests", hits.Load())
	}
}

func FuzzCacheEntry(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Add(encodeEntry(true, time.Time{}, "https://x/a.tgz", []byte("body")))
	f.Add(encodeEntry(false, now.Add(time.Minute), "https://x/b", nil))
	f.Add([]byte("pkgdocs-http-v1\n+abc\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		found, u, body, ok := decodeEntry(data, now)
		if !ok {
			return
		}
		again, _, body2, ok2 := decodeEntry(encodeEntry(found, time.Time{}, u, body), now)
		if !ok2 || again != found || string(body2) != string(body) {
			t.Fatalf("round trip changed the entry")
		}
	})
}

// TestDigestKeyedCache: an artefact with a digest is kept by that digest
// (another URL serving the same bytes is not asked), and a body that does
// not match its digest is never kept.
func TestDigestKeyedCache(t *testing.T) {
	var hits atomic.Int32
	body := []byte("tarball bytes")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/corrupt.tgz" {
			w.Write([]byte("not the bytes"))
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	sum := sha256.Sum256(body)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	c := New(&Options{Retries: -1})
	c.SetCache(&memCache{m: map[string][]byte{}})
	ctx := context.Background()
	for _, p := range []string{"/a.tgz", "/mirror/a.tgz"} {
		if _, err := c.Do(ctx, Request{URL: srv.URL + p, Digest: digest}); err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 1 {
		t.Fatalf("%d requests for one digest", hits.Load())
	}
	c2 := New(&Options{Retries: -1})
	c2.SetCache(&memCache{m: map[string][]byte{}})
	for range 2 {
		c2.Do(ctx, Request{URL: srv.URL + "/corrupt.tgz", Digest: digest})
	}
	if hits.Load() != 3 {
		t.Fatalf("a corrupt body was cached: %d requests", hits.Load())
	}
	if !DigestMatches(body, "sha256-"+base64.StdEncoding.EncodeToString(sum[:])) || DigestMatches(body, "sha256:00") {
		t.Fatal("DigestMatches")
	}
}
