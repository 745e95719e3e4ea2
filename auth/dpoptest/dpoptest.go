// Package dpoptest holds contract tests for implementations of the
// interfaces of DPoP in package auth, such as a DPoPReplayCache kept in a
// store that several instances of a server share.
package dpoptest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth"
)

// key returns a key of the form auth gives a DPoPReplayCache, unique to
// the test and name.
func key(t *testing.T, name string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%s/%d", t.Name(), name, time.Now().UnixNano())))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// TestDPoPReplayCache checks an auth.DPoPReplayCache: a key is new once
// and then seen until it expires, keys do not affect each other, of
// concurrent calls with one key exactly one finds it new, and a key is new
// again once its expiry has passed. newCache returns an empty cache (or
// one whose keys cannot collide with those of other tests). The test of
// expiry waits about a second.
func TestDPoPReplayCache(t *testing.T, newCache func(t *testing.T) auth.DPoPReplayCache) {
	ctx := context.Background()
	seen := func(t *testing.T, c auth.DPoPReplayCache, k string, exp time.Time) bool {
		t.Helper()
		replayed, err := c.Seen(ctx, k, exp)
		if err != nil {
			t.Fatalf("Seen: %v", err)
		}
		return replayed
	}
	t.Run("OnceThenSeen", func(t *testing.T) {
		c := newCache(t)
		k := key(t, "a")
		exp := time.Now().Add(time.Minute)
		if seen(t, c, k, exp) {
			t.Fatal("a new key was reported seen")
		}
		for i := range 3 {
			if !seen(t, c, k, exp) {
				t.Fatalf("call %d: a recorded key was reported new", i+2)
			}
		}
	})
	t.Run("KeysAreIndependent", func(t *testing.T) {
		c := newCache(t)
		exp := time.Now().Add(time.Minute)
		keys := []string{key(t, "a"), key(t, "b"), key(t, "c")}
		for _, k := range keys {
			if seen(t, c, k, exp) {
				t.Fatalf("new key %s reported seen", k)
			}
		}
		for _, k := range keys {
			if !seen(t, c, k, exp) {
				t.Fatalf("key %s not remembered", k)
			}
		}
	})
	t.Run("ConcurrentCallsOneWinner", func(t *testing.T) {
		testConcurrentCallsOneWinner(ctx, t, newCache(t))
	})
	t.Run("NewAgainAfterExpiry", func(t *testing.T) {
		c := newCache(t)
		k := key(t, "short")
		if seen(t, c, k, time.Now().Add(300*time.Millisecond)) {
			t.Fatal("a new key was reported seen")
		}
		if !seen(t, c, k, time.Now().Add(300*time.Millisecond)) {
			t.Fatal("a recorded key was reported new before its expiry")
		}
		deadline := time.Now().Add(5 * time.Second)
		for seen(t, c, k, time.Now().Add(time.Minute)) {
			if time.Now().After(deadline) {
				t.Fatal("a key is still reported seen 5s after its expiry")
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// testConcurrentCallsOneWinner checks that of concurrent calls of c.Seen
// with one new key, exactly one finds it new.
func testConcurrentCallsOneWinner(ctx context.Context, t *testing.T, c auth.DPoPReplayCache) {
	k := key(t, "race")
	exp := time.Now().Add(time.Minute)
	const n = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	fresh, errs := 0, []error(nil)
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			replayed, err := c.Seen(ctx, k, exp)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if !replayed {
				fresh++
			}
		})
	}
	close(start)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("Seen: %v", errs[0])
	}
	if fresh != 1 {
		t.Fatalf("%d of %d concurrent calls found the key new, want 1", fresh, n)
	}
}
