package shared

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Defaults of RedisOptions.
const (
	DefaultPrefix        = "pkgdocs:"
	DefaultMaxValueBytes = 8 << 20
	DefaultLockTTL       = 15 * time.Second
	DefaultMaxWait       = 2 * time.Minute
	DefaultRetryAfter    = 5 * time.Second
)

// ErrTooLarge reports a value over RedisOptions.MaxValueBytes, which is
// not stored (each instance keeps it in its own caches).
var ErrTooLarge = errors.New("value too large to share")

// RedisOptions configure a Redis store. Zero fields take the defaults.
type RedisOptions struct {
	// Prefix starts every key and channel name (default DefaultPrefix).
	Prefix string
	// MaxValueBytes bounds what is stored and what is read back (default
	// DefaultMaxValueBytes): a larger value read is treated as missing.
	MaxValueBytes int
	// LockTTL is how long a fetch's lock lives unless its holder extends
	// it, which it does every third of it while fetching; an instance that
	// dies holding it delays the others by at most this (default
	// DefaultLockTTL).
	LockTTL time.Duration
	// PollInterval is how often a waiting instance looks at the lock
	// between the holder's notifications, to take over from a holder that
	// died (default LockTTL/5).
	PollInterval time.Duration
	// MaxWait bounds a wait for another instance's fetch; past it the
	// waiter fetches alone (default DefaultMaxWait).
	MaxWait time.Duration
	// RetryAfter is how long Redis is skipped after a failure before it is
	// tried again (default DefaultRetryAfter; negative: never skipped).
	RetryAfter time.Duration
	// Logger receives one line when Redis becomes unreachable and one when
	// it is back (default slog.Default()).
	Logger *slog.Logger
	// Waiting, when set, is called when this instance, having found the
	// lock held by another one, is about to block until that one's
	// announcement or the next poll (tests and metrics).
	Waiting func()
}

// Redis is a Store on a Redis server (or cluster) reached through a
// go-redis client. Keys are the prefix, a kind and a digest of the
// caller's key, so that no caller's text reaches the key space. It is safe
// for concurrent use.
type Redis struct {
	client goredis.UniversalClient
	opts   RedisOptions
	health *health
	notify *notifier
}

// NewRedis returns a store using client, which the caller keeps ownership
// of.
func NewRedis(client goredis.UniversalClient, opts *RedisOptions) *Redis {
	r := &Redis{client: client}
	if opts != nil {
		r.opts = *opts
	}
	o := &r.opts
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.MaxValueBytes <= 0 {
		o.MaxValueBytes = DefaultMaxValueBytes
	}
	if o.LockTTL <= 0 {
		o.LockTTL = DefaultLockTTL
	}
	if o.PollInterval <= 0 {
		o.PollInterval = o.LockTTL / 5
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.RetryAfter == 0 {
		o.RetryAfter = DefaultRetryAfter
	} else if o.RetryAfter < 0 {
		o.RetryAfter = 0
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	r.health = &health{log: o.Logger, retryAfter: o.RetryAfter, now: time.Now}
	r.notify = &notifier{client: client, pattern: o.Prefix + "done:*"}
	return r
}

// Close ends the subscription through which this instance's waits are
// woken; the client stays open (its owner closes it).
func (r *Redis) Close() error {
	if err := r.notify.close(); err != nil {
		return fmt.Errorf("shared: %w", err)
	}
	return nil
}

// name returns the Redis key of kind for the caller's key.
func (r *Redis) name(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return r.opts.Prefix + kind + ":" + hex.EncodeToString(sum[:16])
}

// Ping asks Redis whether it answers, which logs a change as any command
// does.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.health.report(ctx, r.client.Ping(ctx).Err()); err != nil {
		return fmt.Errorf("shared: ping: %w", err)
	}
	return nil
}

// do runs one command unless Redis is being skipped, and records how it
// went.
func (r *Redis) do(ctx context.Context, cmd func() error) error {
	if err := r.health.allow(); err != nil {
		return err
	}
	return r.health.report(ctx, cmd())
}

// Get returns the value under key; a value over MaxValueBytes is read no
// further than the limit and treated as missing.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, error) {
	var s string
	err := r.do(ctx, func() error {
		var err error
		s, err = r.client.GetRange(ctx, r.name("v", key), 0, int64(r.opts.MaxValueBytes)).Result()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("shared: get: %w", err)
	}
	if s == "" || len(s) > r.opts.MaxValueBytes {
		return nil, nil
	}
	return []byte(s), nil
}

// Set stores val under key for ttl; a value over MaxValueBytes is refused
// with ErrTooLarge.
func (r *Redis) Set(ctx context.Context, key string, val []byte, ttl time.Duration) error {
	if len(val) > r.opts.MaxValueBytes {
		return fmt.Errorf("shared: %d bytes over the %d-byte limit: %w", len(val), r.opts.MaxValueBytes, ErrTooLarge)
	}
	if err := r.do(ctx, func() error { return r.client.Set(ctx, r.name("v", key), val, ttl).Err() }); err != nil {
		return fmt.Errorf("shared: set: %w", err)
	}
	return nil
}

// extendScript and unlockScript change a lock only while it holds the
// caller's token, so that a holder whose lock expired never extends or
// removes its successor's.
var (
	extendScript = goredis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)
	unlockScript = goredis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)
)

// Errors that end a wait, after which the caller fetches alone.
var (
	errWaitedTooLong = errors.New("another instance's fetch took too long")
	errHolderFailed  = errors.New("another instance's fetch stored no answer")
)

// Once implements Store: a lock with expiry (SET NX PX) that its holder
// extends while it fetches and removes afterwards, announcing it on a
// channel; each instance's waits hear it through one pattern subscription
// (notifier).
func (r *Redis) Once(ctx context.Context, key string, found func(context.Context) bool, fetch func(context.Context)) error {
	lock, channel := r.name("lock", key), r.name("done", key)
	deadline := time.Now().Add(r.opts.MaxWait)
	for {
		token, err := newToken()
		if err != nil {
			return fmt.Errorf("shared: %w", err)
		}
		var held bool
		if err := r.do(ctx, func() error {
			held, err = r.client.SetNX(ctx, lock, token, r.opts.LockTTL).Result()
			return err
		}); err != nil {
			return fmt.Errorf("shared: lock: %w", err)
		}
		if held {
			// The answer may have been stored between the caller's look
			// and the lock: its holder stores before it unlocks.
			if found != nil && found(ctx) {
				r.unlock(ctx, lock, token)
				return nil
			}
			r.fetchHolding(ctx, lock, channel, token, fetch)
			return nil
		}
		done, err := r.wait(ctx, lock, channel, found, deadline)
		if err != nil {
			return fmt.Errorf("shared: waiting for another instance: %w", err)
		}
		if done {
			return nil
		}
		// The lock was released or expired with no answer stored (the
		// holder failed or died): take it over.
	}
}

// fetchHolding calls fetch, extending the lock meanwhile, then releases it
// and wakes the waiters.
func (r *Redis) fetchHolding(ctx context.Context, lock, channel, token string, fetch func(context.Context)) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.opts.LockTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_ = r.do(ctx, func() error {
					return extendScript.Run(ctx, r.client, []string{lock}, token, r.opts.LockTTL.Milliseconds()).Err()
				})
			}
		}
	}()
	defer func() {
		close(stop)
		wg.Wait()
		r.unlock(ctx, lock, token)
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.LockTTL)
		defer cancel()
		_ = r.do(ctx, func() error { return r.client.Publish(ctx, channel, "done").Err() })
	}()
	fetch(ctx)
}

// unlock removes the lock if it still holds token.
func (r *Redis) unlock(ctx context.Context, lock, token string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.LockTTL)
	defer cancel()
	_ = r.do(ctx, func() error { return unlockScript.Run(ctx, r.client, []string{lock}, token).Err() })
}

// wait waits for the lock's holder: woken by its announcement, or every
// PollInterval, it calls found, then looks whether the lock still exists.
// done is true when found reported the answer; false with no error when
// the lock is gone without it and without an announcement (its holder
// died: the caller takes it over); errHolderFailed when the holder
// announced it was done but stored nothing.
func (r *Redis) wait(ctx context.Context, lock, channel string, found func(context.Context) bool, deadline time.Time) (done bool, err error) {
	if err := r.health.allow(); err != nil {
		return false, err
	}
	announced, stop, err := r.notify.watch(ctx, channel)
	if errors.Is(err, errClosed) {
		return false, err
	}
	if err != nil {
		return false, r.health.report(ctx, err)
	}
	defer stop()
	tick := time.NewTicker(r.opts.PollInterval)
	defer tick.Stop()
	woken, told := false, false
	for {
		if found(ctx) {
			return true, nil
		}
		if woken {
			// The holder finished without storing an answer (the
			// registry failed it): fetching alone, as each instance
			// would without Redis, beats queueing for the lock.
			return false, errHolderFailed
		}
		var n int64
		if err := r.do(ctx, func() error {
			var err error
			n, err = r.client.Exists(ctx, lock).Result()
			return err
		}); err != nil {
			return false, err
		}
		if n == 0 {
			// Released or expired. A holder stores before it unlocks, so
			// a look now sees what it stored, whatever the announcement.
			return found(ctx), nil
		}
		if time.Now().After(deadline) {
			return false, errWaitedTooLong
		}
		if r.opts.Waiting != nil && !told {
			told = true
			r.opts.Waiting() // about to block, listening
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-announced:
			woken = true
		case <-tick.C:
		}
	}
}

// newToken returns a random lock token, which only its holder knows.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("lock token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
