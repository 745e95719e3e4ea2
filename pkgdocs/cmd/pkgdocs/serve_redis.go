package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
)

// redisFlag is --redis: the Redis through which the instances of a team
// server share what they fetched (service.Config.Shared).
type redisFlag struct {
	url string
}

// register adds --redis to fs.
func (f *redisFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "redis", os.Getenv("PKGDOCS_REDIS_URL"),
		"share fetched packages with the other instances through this Redis: redis://[user:password@]host:port/db, rediss:// for TLS (default: none; env PKGDOCS_REDIS_URL)")
}

// Timeouts of the Redis client: an unreachable Redis costs an answer at
// most about this much before the instance answers alone.
const (
	redisDialTimeout = 2 * time.Second
	redisIOTimeout   = 2 * time.Second
)

// open connects cfg to the Redis of --redis, if set, and returns what
// closes the connection. Redis being down is no error: the instance
// answers alone and says so once on stderr (and once when it is back).
func (f *redisFlag) open(cfg *service.Config, stderr io.Writer) (closeFn func(), err error) {
	return f.openWith(cfg, &shared.RedisOptions{Logger: slog.New(slog.NewTextHandler(stderr, nil))})
}

// openWith is open with the store's options given (tests shorten its
// waits and capture its log).
func (f *redisFlag) openWith(cfg *service.Config, opts *shared.RedisOptions) (closeFn func(), err error) {
	if f.url == "" {
		return func() {}, nil
	}
	client, err := newRedisClient(f.url)
	if err != nil {
		return nil, err
	}
	store := shared.NewRedis(client, opts)
	ctx, cancel := context.WithTimeout(context.Background(), redisDialTimeout+redisIOTimeout)
	defer cancel()
	_ = store.Ping(ctx) // logs when Redis is not there yet
	cfg.Shared = store
	return func() {
		_ = store.Close()
		_ = client.Close()
	}, nil
}

// newRedisClient returns a client of the Redis at rawURL with the
// timeouts above and one retry. Errors never show the URL's password.
func newRedisClient(rawURL string) (*goredis.Client, error) {
	opts, err := goredis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("--redis: %s", redactURL(err.Error(), rawURL))
	}
	opts.DialTimeout = redisDialTimeout
	opts.ReadTimeout = redisIOTimeout
	opts.WriteTimeout = redisIOTimeout
	opts.MaxRetries = 1
	opts.DialerRetries = 1
	// go-redis logs each failed dial; the store logs an outage once.
	goredis.SetLogger(quietRedisLog{})
	return goredis.NewClient(opts), nil
}

// quietRedisLog drops go-redis's own log lines: the shared store says
// once that Redis is unreachable and once that it is back
// (shared.RedisOptions.Logger), where go-redis would log every failed dial.
type quietRedisLog struct{}

// Printf drops the line.
func (quietRedisLog) Printf(context.Context, string, ...any) {}

// errBadRedisURL is the message of a --redis value that is not a URL.
var errBadRedisURL = errors.New("not a Redis URL (redis://[user:password@]host:port/db or rediss://...)")

// redactURL removes rawURL's password (and, if rawURL is not even a URL,
// everything) from msg.
func redactURL(msg, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return errBadRedisURL.Error()
	}
	if p, ok := u.User.Password(); ok && p != "" {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
	}
	return msg
}
