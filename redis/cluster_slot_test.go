package redis_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/redis"
)

// TestClusterSlotMoved: on a Redis Cluster (GOMCP_REDIS_CLUSTER), when the
// slot of a session's route channel moves to another primary (as a
// resharding moves it), Redis ends the sharded subscriptions to it; the
// backends make them again on the new primary, and messages reach every
// subscription again.
func TestClusterSlotMoved(t *testing.T) {
	u := os.Getenv("GOMCP_REDIS_CLUSTER")
	if u == "" {
		t.Skip("needs a Redis Cluster (GOMCP_REDIS_CLUSTER), which .ci/redis.sh gives")
	}
	addr := "cluster " + u
	admin := newClient(t, addr).(*goredis.ClusterClient)
	defer admin.Close()
	flush(t, admin)
	ctx := t.Context()
	bs := []*redis.Backend{newBackend(t, addr), newBackend(t, addr)}
	const session = "moved"
	got := make(chan string, 64)
	for i, b := range bs {
		unsub, err := b.SessionRouter().Subscribe(ctx, session, func(m *mcp.SessionMessage) { got <- fmt.Sprint(i, " ", string(m.Data)) })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(unsub)
	}
	// The route channel's slot: the hash tag {rN} the router uses.
	h := fnv.New32a()
	_, _ = h.Write([]byte(session))
	slot, err := admin.ClusterKeySlot(ctx, fmt.Sprintf("{r%d}", h.Sum32()%16)).Result()
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the backend reads CLUSTER SLOTS (hub.go); the test reads what it reads
	slots, err := admin.ClusterSlots(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	var from goredis.ClusterNode
	var to goredis.ClusterNode
	for _, r := range slots {
		if int64(r.Start) <= slot && slot <= int64(r.End) {
			from = r.Nodes[0]
		}
	}
	for _, r := range slots {
		if r.Nodes[0].ID != from.ID {
			to = r.Nodes[0]
		}
	}
	if from.ID == "" || to.ID == "" {
		t.Fatalf("slot %d: no primary to move it from or to in %+v", slot, slots)
	}
	node := func(n goredis.ClusterNode) *goredis.Client {
		c := goredis.NewClient(&goredis.Options{Addr: n.Addr})
		t.Cleanup(func() { c.Close() })
		return c
	}
	src, dst := node(from), node(to)
	for _, step := range []struct {
		c    *goredis.Client
		args []any
	}{
		{dst, []any{"cluster", "setslot", slot, "importing", from.ID}},
		{src, []any{"cluster", "setslot", slot, "migrating", to.ID}},
		{dst, []any{"cluster", "setslot", slot, "node", to.ID}},
		{src, []any{"cluster", "setslot", slot, "node", to.ID}},
	} {
		if err := step.c.Do(ctx, step.args...).Err(); err != nil {
			t.Fatalf("%v: %v", step.args, err)
		}
	}
	t.Logf("moved slot %d from %s to %s", slot, from.Addr, to.Addr)
	deliverAgain(t, "after the slot moved", got, []string{"0", "1"}, func(tag string) bool {
		n, err := bs[0].SessionRouter().PublishCount(ctx, session, &mcp.SessionMessage{Kind: mcp.RouteState, Data: []byte(tag)})
		return err == nil && n == 2
	})
}
