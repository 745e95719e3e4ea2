package redis_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/ext/events/webhook/webhooktest"
	"github.com/gomcp/sdk/redis"
)

// clusterAddrs returns the seed addresses of a Redis Cluster to test
// against, from GOMCP_REDIS_CLUSTER_ADDR (host:port, comma-separated).
func clusterAddrs() []string {
	if v := os.Getenv("GOMCP_REDIS_CLUSTER_ADDR"); v != "" {
		return strings.Split(v, ",")
	}
	return nil
}

// newClusterBackend returns a backend on a fresh cluster client of addrs,
// after flushing every master; both are closed with t.
func newClusterBackend(t *testing.T, addrs []string, flush bool) *redis.Backend {
	t.Helper()
	client := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs, DialTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second})
	if flush {
		if err := client.ForEachMaster(t.Context(), func(ctx context.Context, c *goredis.Client) error {
			return c.FlushDB(ctx).Err()
		}); err != nil {
			t.Fatalf("flushing the cluster: %v", err)
		}
	}
	b := redis.New(client, &redis.Options{KeyPrefix: "test:"})
	t.Cleanup(func() {
		_ = b.Close()
		_ = client.Close()
	})
	return b
}

// TestWebhookRegistryCluster runs the contract tests and the two-instance
// test of the webhook registry on a Redis Cluster (a cluster client), where
// a transaction or a multi-key command over keys of different slots fails
// (CROSSSLOT): it shows that the registry sends none. It needs
// GOMCP_REDIS_CLUSTER_ADDR, which .ci/redis.sh sets.
func TestWebhookRegistryCluster(t *testing.T) {
	addrs := clusterAddrs()
	if addrs == nil {
		t.Skip("GOMCP_REDIS_CLUSTER_ADDR is not set: no Redis Cluster to test against")
	}
	webhooktest.TestRegistry(t, func(t *testing.T) webhook.Registry {
		return newClusterBackend(t, addrs, true).WebhookRegistry()
	}, &miniClock{})
	t.Run("TwoInstances", func(t *testing.T) {
		a := newClusterBackend(t, addrs, true).WebhookRegistry()
		testTwoInstances(t, a, newClusterBackend(t, addrs, false).WebhookRegistry())
	})
}
