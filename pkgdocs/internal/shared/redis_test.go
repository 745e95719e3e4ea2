package shared

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"
)

// newStore returns a store on a fresh miniredis, with a log the test reads.
func newStore(t *testing.T, opts RedisOptions) (*Redis, *miniredis.Miniredis, *lockedLog) {
	t.Helper()
	m := miniredis.RunT(t)
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr(), MaxRetries: 1})
	t.Cleanup(func() { client.Close() })
	log := &lockedLog{}
	opts.Logger = slog.New(slog.NewTextHandler(log, nil))
	r := NewRedis(client, &opts)
	t.Cleanup(func() { r.Close() })
	return r, m, log
}

type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestRedisValues: values round-trip under a digest of the key; a value
// over the limit is neither stored nor read back.
func TestRedisValues(t *testing.T) {
	r, m, _ := newStore(t, RedisOptions{MaxValueBytes: 16})
	ctx := t.Context()
	if err := r.Set(ctx, "npm\x00express\x00\x00", []byte("small"), time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, k := range m.Keys() {
		if !strings.HasPrefix(k, "pkgdocs:v:") || strings.Contains(k, "express") {
			t.Errorf("key %q: want the prefix and a digest, never the caller's text", k)
		}
	}
	tests := []struct {
		name string
		key  string
		want string
	}{
		{"stored", "npm\x00express\x00\x00", "small"},
		{"missing", "npm\x00nosuch\x00\x00", ""},
	}
	for _, tt := range tests {
		got, err := r.Get(ctx, tt.key)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Get = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if err := r.Set(ctx, "big", bytes.Repeat([]byte("x"), 17), time.Minute); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Set of 17 bytes over a 16-byte limit: %v, want ErrTooLarge", err)
	}
	// A value another writer made too large reads as missing.
	m.Set(r.name("v", "huge"), strings.Repeat("y", 1000))
	if got, err := r.Get(ctx, "huge"); got != nil || err != nil {
		t.Errorf("Get of a 1000-byte value over the limit = %d bytes, %v; want nothing", len(got), err)
	}
}

// TestRedisOnceTakesOverFromDeadHolder: a lock whose holder died (nobody
// extends it) expires, and the waiter fetches in its place.
func TestRedisOnceTakesOverFromDeadHolder(t *testing.T) {
	waiting := make(chan struct{}, 1)
	r, m, _ := newStore(t, RedisOptions{LockTTL: 10 * time.Second, PollInterval: 5 * time.Millisecond, Waiting: func() { waiting <- struct{}{} }})
	m.Set(r.name("lock", "k"), "dead holder")
	m.SetTTL(r.name("lock", "k"), 10*time.Second)
	fetched := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- r.Once(context.Background(), "k", func(context.Context) bool { return false }, func(context.Context) { close(fetched) })
	}()
	guard := time.NewTimer(30 * time.Second) // a failure guard, not a wait for time to pass
	defer guard.Stop()
	select {
	case <-waiting:
	case <-guard.C:
		t.Fatal("Once never waited for the lock's holder")
	}
	select {
	case <-fetched:
		t.Fatal("fetched while the lock was still held")
	default:
	}
	m.FastForward(10 * time.Second) // the dead holder's lock expires
	select {
	case <-fetched:
	case <-guard.C:
		t.Fatal("the waiter never took over the expired lock")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if m.Exists(r.name("lock", "k")) {
		t.Error("the lock outlived the fetch")
	}
}

// TestRedisOnceWakesWaiters: a waiter is woken by the holder's
// announcement (its poll is an hour) and finds the answer without
// fetching.
func TestRedisOnceWakesWaiters(t *testing.T) {
	waiting := make(chan struct{}, 1)
	r, _, _ := newStore(t, RedisOptions{PollInterval: time.Hour, Waiting: func() { waiting <- struct{}{} }})
	release := make(chan struct{})
	holding := make(chan struct{})
	var mu sync.Mutex
	stored := false
	holderDone := make(chan error, 1)
	go func() {
		holderDone <- r.Once(context.Background(), "k", nil, func(context.Context) {
			close(holding)
			<-release
			mu.Lock()
			stored = true
			mu.Unlock()
		})
	}()
	<-holding
	waiterDone := make(chan error, 1)
	fetchedTwice := false
	go func() {
		waiterDone <- r.Once(context.Background(), "k", func(context.Context) bool {
			mu.Lock()
			defer mu.Unlock()
			return stored
		}, func(context.Context) { fetchedTwice = true })
	}()
	guard := time.NewTimer(30 * time.Second) // a failure guard
	defer guard.Stop()
	select {
	case <-waiting:
	case <-guard.C:
		t.Fatal("the second caller never waited")
	}
	close(release)
	for _, ch := range []chan error{holderDone, waiterDone} {
		select {
		case err := <-ch:
			if err != nil {
				t.Fatal(err)
			}
		case <-guard.C:
			t.Fatal("the waiter was not woken by the holder's announcement")
		}
	}
	if fetchedTwice {
		t.Error("the waiter fetched although the holder had stored the answer")
	}
}

// TestRedisOutageLoggedOnce: an unreachable Redis fails each command with
// ErrUnavailable and is logged once; its return, once; while it is down,
// commands skip it for RetryAfter.
func TestRedisOutageLoggedOnce(t *testing.T) {
	r, m, log := newStore(t, RedisOptions{RetryAfter: time.Hour})
	now := time.Now()
	r.health.now = func() time.Time { return now }
	ctx := t.Context()
	if _, err := r.Get(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	for range 3 {
		if _, err := r.Get(ctx, "k"); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Get with Redis down: %v, want ErrUnavailable", err)
		}
		if err := r.Once(ctx, "k", nil, func(context.Context) { t.Error("Once fetched with Redis down; its caller fetches alone") }); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Once with Redis down: %v, want ErrUnavailable", err)
		}
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get(ctx, "k"); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "skipped") {
		t.Errorf("Get within RetryAfter of the failure: %v, want it skipped", err)
	}
	now = now.Add(time.Hour)
	if _, err := r.Get(ctx, "k"); err != nil {
		t.Errorf("Get after RetryAfter with Redis back: %v", err)
	}
	out := log.String()
	if strings.Count(out, "unreachable") != 1 || strings.Count(out, "reachable again") != 1 {
		t.Errorf("log, want one line for the outage and one for the return:\n%s", out)
	}
}

// TestRedisWaitsShareOneSubscription: an instance waiting for several keys
// at once listens on one pattern subscription, and each announcement
// wakes the waits of its own key.
func TestRedisWaitsShareOneSubscription(t *testing.T) {
	waiting := make(chan struct{}, 3)
	r, m, _ := newStore(t, RedisOptions{PollInterval: time.Hour, Waiting: func() { waiting <- struct{}{} }})
	keys := []string{"a", "b", "c"}
	var mu sync.Mutex
	stored := map[string]bool{}
	done := make(chan error, len(keys))
	for _, k := range keys {
		m.Set(r.name("lock", k), "another instance")
		go func() {
			done <- r.Once(context.Background(), k, func(context.Context) bool {
				mu.Lock()
				defer mu.Unlock()
				return stored[k]
			}, func(context.Context) { t.Errorf("%s fetched while another instance held its lock", k) })
		}()
	}
	guard := time.NewTimer(30 * time.Second) // a failure guard
	defer guard.Stop()
	for range keys {
		select {
		case <-waiting:
		case <-guard.C:
			t.Fatal("the waits never started")
		}
	}
	if n := m.PubSubNumPat(); n != 1 {
		t.Errorf("%d pattern subscriptions for 3 waits, want 1", n)
	}
	for _, k := range keys {
		mu.Lock()
		stored[k] = true
		mu.Unlock()
		m.Publish(r.name("done", k), "done")
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-guard.C:
			t.Fatalf("the wait for %s was not woken by its announcement", k)
		}
		if len(done) != 0 {
			t.Errorf("after announcing %s, the wait of a key not announced yet returned", k)
		}
	}
}

// TestRedisOnceAfterHolderFailed: when the holder announces it is done
// but stored nothing (the registry failed it), a waiter does not queue
// for the lock: Once returns an error and its caller fetches alone.
func TestRedisOnceAfterHolderFailed(t *testing.T) {
	waiting := make(chan struct{}, 1)
	r, _, _ := newStore(t, RedisOptions{PollInterval: time.Hour, Waiting: func() { waiting <- struct{}{} }})
	release, holding := make(chan struct{}), make(chan struct{})
	go r.Once(context.Background(), "k", nil, func(context.Context) {
		close(holding)
		<-release // then stores nothing
	})
	<-holding
	done := make(chan error, 1)
	go func() {
		done <- r.Once(context.Background(), "k", func(context.Context) bool { return false }, func(context.Context) {
			t.Error("the waiter queued for the lock after the holder failed")
		})
	}()
	guard := time.NewTimer(30 * time.Second) // a failure guard
	defer guard.Stop()
	select {
	case <-waiting:
	case <-guard.C:
		t.Fatal("the second caller never waited")
	}
	close(release)
	select {
	case err := <-done:
		if !errors.Is(err, errHolderFailed) {
			t.Errorf("Once after the holder failed: %v, want errHolderFailed", err)
		}
	case <-guard.C:
		t.Fatal("the waiter was not woken")
	}
}

// TestRedisOnceLooksAgainAfterLocking: an answer stored between the
// caller's look and its taking the lock (another instance finished in
// between) is found, not fetched again, and the lock is released.
func TestRedisOnceLooksAgainAfterLocking(t *testing.T) {
	r, m, _ := newStore(t, RedisOptions{})
	err := r.Once(t.Context(), "k", func(context.Context) bool { return true }, func(context.Context) {
		t.Error("fetched an answer already stored")
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Exists(r.name("lock", "k")) {
		t.Error("the lock was kept")
	}
}
