package main

import (
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
)

func TestScaleOutFlags(t *testing.T) {
	key := strings.Repeat("ab", 32)
	m := miniredis.RunT(t)
	single := redisFlags{single: "redis://" + m.Addr() + "/0"}
	cluster := redisFlags{cluster: "redis://" + m.Addr() + "?addr=127.0.0.1:1&addr=127.0.0.1:2"}
	sentinel := redisFlags{sentinel: "redis://" + m.Addr() + "?master_name=mymaster"}
	tests := []struct {
		name    string
		redis   redisFlags
		key     string
		wantErr string
		shared  bool
	}{
		{"nothing", redisFlags{}, "", "", false},
		{"key only", redisFlags{}, key, "", false},
		{"redis", single, key, "", true},
		{"redis without key", single, "", "-redis needs -state-key", false},
		{"cluster", cluster, key, "", true},
		{"cluster without key", cluster, "", "-redis-cluster needs -state-key", false},
		{"sentinel", sentinel, key, "", true},
		{"sentinel without key", sentinel, "", "-redis-sentinel needs -state-key", false},
		{"two Redis", redisFlags{single: single.single, cluster: cluster.cluster}, key, "-redis and -redis-cluster: give one Redis only", false},
		{"key not hex", redisFlags{}, "zz", "not hex", false},
		{"key short", redisFlags{}, "abcd", "want at least 32", false},
		{"redis not a URL", redisFlags{single: "http://" + m.Addr()}, key, "-redis:", false},
		{"cluster not a URL", redisFlags{cluster: "http://" + m.Addr()}, key, "-redis-cluster:", false},
		{"sentinel without a master name", redisFlags{sentinel: "redis://" + m.Addr() + "?master_nam=x"}, key, "-redis-sentinel:", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := newScaleOut(tt.redis, tt.key)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("newScaleOut(%+v, %q) = %v, want %q", tt.redis, tt.key, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("newScaleOut(%+v, %q): %v", tt.redis, tt.key, err)
			}
			defer s.close()
			var so mcp.ServerOptions
			s.tuneServer(&so)
			ho := s.tuneHandler(&mcp.StreamableHTTPOptions{})
			if got := ho.SessionStore != nil && so.EventBus != nil && so.Tasks != nil && so.Tasks.Store != nil &&
				s.eventLog() != nil && s.webhookRegistry() != nil; got != tt.shared {
				t.Errorf("shared state set = %v, want %v", got, tt.shared)
			}
			if tt.key != "" && len(so.RequestStateKey) != 32 {
				t.Errorf("RequestStateKey of %d bytes", len(so.RequestStateKey))
			}
			var client goredis.UniversalClient
			if s != nil {
				client = s.client
			}
			var kind string
			switch client.(type) {
			case *goredis.ClusterClient:
				kind = "cluster"
			case *goredis.Client:
				kind = "client"
			}
			want := map[bool]string{true: "client"}[tt.shared]
			if tt.redis.cluster != "" {
				want = "cluster"
			}
			if kind != want {
				t.Errorf("client %T, want a %s", client, want)
			}
		})
	}
}
