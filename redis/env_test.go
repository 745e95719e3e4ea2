package redis_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// redisAddr names the real Redis to test against, if any, as newClient
// takes it: GOMCP_REDIS_ADDR (host:port of one Redis), else
// GOMCP_REDIS_CLUSTER (a go-redis cluster URL: redis://host:port?addr=host:port&...)
// as "cluster " + URL, else GOMCP_REDIS_SENTINEL (a go-redis failover
// URL: redis://sentinel-host:port?master_name=NAME) as "sentinel " + URL.
// Empty means miniredis.
func redisAddr() string {
	if a := os.Getenv("GOMCP_REDIS_ADDR"); a != "" {
		return a
	}
	if u := os.Getenv("GOMCP_REDIS_CLUSTER"); u != "" {
		return "cluster " + u
	}
	if u := os.Getenv("GOMCP_REDIS_SENTINEL"); u != "" {
		return "sentinel " + u
	}
	return ""
}

// newClient returns a client of addr: host:port, or a cluster or
// Sentinel URL prefixed as redisAddr says.
func newClient(t testing.TB, addr string) goredis.UniversalClient {
	t.Helper()
	kind, u, _ := strings.Cut(addr, " ")
	switch kind {
	case "cluster":
		o, err := goredis.ParseClusterURL(u)
		if err != nil {
			t.Fatalf("GOMCP_REDIS_CLUSTER: %v", err)
		}
		o.MaxRetries, o.DialTimeout, o.ReadTimeout, o.WriteTimeout = 2, time.Second, 2*time.Second, 2*time.Second
		return goredis.NewClusterClient(o)
	case "sentinel":
		o, err := goredis.ParseFailoverURL(u)
		if err != nil {
			t.Fatalf("GOMCP_REDIS_SENTINEL: %v", err)
		}
		o.MaxRetries, o.DialTimeout, o.ReadTimeout, o.WriteTimeout = -1, time.Second, 2*time.Second, 2*time.Second
		return goredis.NewFailoverClient(o)
	}
	return goredis.NewClient(&goredis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second})
}

// flush empties the Redis the tests run against: every primary of a
// cluster.
func flush(t testing.TB, c goredis.UniversalClient) {
	t.Helper()
	var err error
	if cc, ok := c.(*goredis.ClusterClient); ok {
		err = cc.ForEachMaster(t.Context(), func(ctx context.Context, m *goredis.Client) error { return m.FlushDB(ctx).Err() })
	} else {
		err = c.FlushDB(t.Context()).Err()
	}
	if err != nil {
		t.Fatalf("flushing the test Redis: %v", err)
	}
}

// keys returns the keys matching pattern, from every primary of a
// cluster.
func keys(t testing.TB, c goredis.UniversalClient, pattern string) []string {
	t.Helper()
	cc, ok := c.(*goredis.ClusterClient)
	if !ok {
		return c.Keys(t.Context(), pattern).Val()
	}
	var mu sync.Mutex
	var all []string
	err := cc.ForEachMaster(t.Context(), func(ctx context.Context, m *goredis.Client) error {
		ks, err := m.Keys(ctx, pattern).Result()
		mu.Lock()
		all = append(all, ks...)
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatalf("listing keys: %v", err)
	}
	return all
}
