package cache

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLRUEvictsLeastRecentlyUsedByWeight(t *testing.T) {
	c := NewLRU[string, int](10)
	c.Set("a", 1, 4, time.Hour)
	c.Set("b", 2, 4, time.Hour)
	if _, ok := c.Get("a"); !ok { // a becomes most recent
		t.Fatal("a missing")
	}
	c.Set("c", 3, 4, time.Hour) // 12 > 10: evict b, the least recent
	if _, ok := c.Get("b"); ok {
		t.Error("b should have been evicted")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s should still be cached", k)
		}
	}
	if c.Weight() != 8 {
		t.Errorf("weight = %d, want 8", c.Weight())
	}
	c.Set("huge", 9, 11, time.Hour)
	if _, ok := c.Get("huge"); ok || c.Len() != 2 {
		t.Error("an entry heavier than the cache must not be stored or evict others")
	}
}

func TestLRUExpiry(t *testing.T) {
	c := NewLRU[string, string](100)
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	c.Set("k", "v", 1, time.Minute)
	if _, ok := c.Get("k"); !ok {
		t.Fatal("fresh entry missing")
	}
	now = now.Add(2 * time.Minute)
	if _, ok := c.Get("k"); ok {
		t.Fatal("expired entry returned as fresh")
	}
	if v, fresh, ok := c.Peek("k"); !ok || fresh || v != "v" {
		t.Fatalf("Peek = %q %v %v, want the stale value", v, fresh, ok)
	}
}

var errGone = errors.New("gone")
var errFlaky = errors.New("flaky")

func policy() Policy {
	return Policy{
		TTL: time.Hour, NegativeTTL: time.Minute,
		Transient: func(err error) bool { return errors.Is(err, errFlaky) },
	}
}

func TestLoaderSingleflight(t *testing.T) {
	l := NewLoader(100)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _, err := l.Load(context.Background(), "k", policy(), func(context.Context) (any, error) {
				calls.Add(1)
				<-release
				return "value", nil
			})
			if err != nil || v != "value" {
				t.Errorf("Load = %v, %v", v, err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("load ran %d times, want 1", calls.Load())
	}
	if _, _, err := l.Load(context.Background(), "k", policy(), func(context.Context) (any, error) {
		t.Fatal("cached value reloaded")
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestLoaderErrorCaching(t *testing.T) {
	l := NewLoader(100)
	var calls int
	load := func(err error) func(context.Context) (any, error) {
		return func(context.Context) (any, error) { calls++; return nil, err }
	}
	// Permanent errors are cached briefly.
	l.Load(context.Background(), "missing", policy(), load(errGone))
	_, _, err := l.Load(context.Background(), "missing", policy(), load(errGone))
	if !errors.Is(err, errGone) || calls != 1 {
		t.Fatalf("negative result: err=%v calls=%d, want cached errGone", err, calls)
	}
	// Transient errors never are.
	calls = 0
	l.Load(context.Background(), "flaky", policy(), load(errFlaky))
	l.Load(context.Background(), "flaky", policy(), load(errFlaky))
	if calls != 2 {
		t.Fatalf("transient error was cached (calls=%d)", calls)
	}
}

func TestLoaderServesStaleOnTransientFailure(t *testing.T) {
	l := NewLoader(100)
	now := time.Unix(0, 0)
	l.lru.now = func() time.Time { return now }
	l.Load(context.Background(), "k", policy(), func(context.Context) (any, error) { return "old", nil })
	now = now.Add(2 * time.Hour)
	v, stale, err := l.Load(context.Background(), "k", policy(), func(context.Context) (any, error) { return nil, errFlaky })
	if err != nil || !stale || v != "old" {
		t.Fatalf("Load = %v stale=%v err=%v, want stale old value", v, stale, err)
	}
	_, _, err = l.Load(context.Background(), "other", policy(), func(context.Context) (any, error) { return nil, errFlaky })
	if !errors.Is(err, errFlaky) {
		t.Fatalf("without a stale value the error must surface, got %v", err)
	}
}

func TestLoaderCallerCancellation(t *testing.T) {
	l := NewLoader(100)
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, err := l.Load(ctx, "k", policy(), func(context.Context) (any, error) { <-release; return 1, nil })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	}()
	cancel()
	<-done
	close(release)
}

func TestDiskSurvivesReopenAndEvicts(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenDisk(dir, 2500)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Put("a", bytes.Repeat([]byte("a"), 1000)); err != nil {
		t.Fatal(err)
	}
	d2, _ := OpenDisk(dir, 2500)
	if got, ok := d2.Get("a"); !ok || len(got) != 1000 {
		t.Fatalf("reopened cache lost the entry (ok=%v len=%d)", ok, len(got))
	}
	old := time.Now().Add(-time.Hour)
	// Make "a" the oldest, then overflow the cap.
	if err := os.Chtimes(d2.path("a"), old, old); err != nil {
		t.Fatal(err)
	}
	d2.Put("b", bytes.Repeat([]byte("b"), 1000))
	d2.Put("c", bytes.Repeat([]byte("c"), 1000))
	if _, ok := d2.Get("a"); ok {
		t.Error("oldest entry should have been evicted")
	}
	if _, ok := d2.Get("c"); !ok {
		t.Error("newest entry missing")
	}
	if _, ok := d2.Get("never"); ok {
		t.Error("unknown key found")
	}
}

func TestLoaderTTLForShortensDegradedValues(t *testing.T) {
	l := NewLoader(100)
	now := time.Unix(0, 0)
	l.lru.now = func() time.Time { return now }
	p := policy()
	p.TTLFor = func(v any) time.Duration {
		if v == "degraded" {
			return time.Minute
		}
		return 0
	}
	calls := 0
	load := func(v string) func(context.Context) (any, error) {
		return func(context.Context) (any, error) { calls++; return v, nil }
	}
	l.Load(context.Background(), "d", p, load("degraded"))
	l.Load(context.Background(), "full", p, load("full"))
	now = now.Add(2 * time.Minute)
	l.Load(context.Background(), "d", p, load("degraded"))
	l.Load(context.Background(), "full", p, load("full"))
	if calls != 3 {
		t.Fatalf("calls = %d, want 3: the degraded value expires after a minute, the full one keeps the policy TTL", calls)
	}
}
