package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/dpoptest"
	"github.com/gomcp/sdk/redis"
)

var _ auth.DPoPReplayCache = (*redis.DPoPReplayCache)(nil)

// TestDPoPReplayCache runs the auth module's contract tests of a DPoP
// replay cache. A miniredis's keys expire only when told that time passed,
// so its clock is moved along with the wall clock meanwhile.
func TestDPoPReplayCache(t *testing.T) {
	dpoptest.TestDPoPReplayCache(t, func(t *testing.T) auth.DPoPReplayCache {
		addr, m := server(t)
		if m != nil {
			followWallClock(t, m)
		}
		return newBackend(t, addr).DPoPReplayCache()
	})
}

// followWallClock advances m's TTL clock with the wall clock until t ends.
func followWallClock(t *testing.T, m *miniredis.Miniredis) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
	})
}

// TestDPoPReplayCacheBadInput: a key that could reach another part of the
// key space is refused, an expiry already past records nothing, and a
// Redis that is gone is an error, never a proof accepted unchecked.
func TestDPoPReplayCacheBadInput(t *testing.T) {
	m := miniredis.RunT(t)
	c := newBackend(t, m.Addr()).DPoPReplayCache()
	ctx := context.Background()
	for _, key := range []string{"", "a:b", "session:x", "a b", string(make([]byte, 200))} {
		if _, err := c.Seen(ctx, key, time.Now().Add(time.Minute)); err == nil {
			t.Errorf("Seen(%q) accepted the key", key)
		}
	}
	const key = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	if replayed, err := c.Seen(ctx, key, time.Now().Add(-time.Second)); err != nil || replayed {
		t.Fatalf("Seen with a past expiry = %v, %v; want false, nil", replayed, err)
	}
	if m.Exists("test:dpop:" + key) {
		t.Fatal("a key with a past expiry was recorded")
	}
	if replayed, err := c.Seen(ctx, key, time.Now().Add(time.Minute)); err != nil || replayed {
		t.Fatalf("first Seen = %v, %v; want false, nil", replayed, err)
	}
	if ttl := m.TTL("test:dpop:" + key); ttl <= 59*time.Second || ttl > time.Minute+time.Second {
		t.Fatalf("the key expires in %v, want the proof's minute", ttl)
	}
	if replayed, err := c.Seen(ctx, key, time.Now().Add(-time.Second)); err != nil || !replayed {
		t.Fatalf("Seen of a recorded key with a past expiry = %v, %v; want true, nil", replayed, err)
	}
	m.Close()
	replayed, err := c.Seen(ctx, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", time.Now().Add(time.Minute))
	if err == nil {
		t.Fatalf("Seen with Redis gone = %v, %v; want an error", replayed, err)
	}
}
