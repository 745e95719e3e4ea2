package redis_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/redis"
)

// TestClusterNodeRestart: on a Redis Cluster (GOMCP_REDIS_CLUSTER) each
// primary in turn is restarted (GOMCP_REDIS_RESTART: a command, given the
// node's host:port, that returns once the node serves again). After each
// restart, the session router's sharded subscriptions and the event bus's
// subscription, made before, receive again without being made anew, and
// every subscription of a session is counted again; after all of them,
// what was stored before (sessions' state, their events, tasks) is all
// there: a node that keeps its data (appendonly, as .ci/redis.sh starts
// them) loses nothing in a restart, as a single Redis that keeps its
// data loses nothing (TestRestart shows the subscriptions coming back
// there).
func TestClusterNodeRestart(t *testing.T) {
	u, restart := os.Getenv("GOMCP_REDIS_CLUSTER"), os.Getenv("GOMCP_REDIS_RESTART")
	if u == "" || restart == "" {
		t.Skip("needs a Redis Cluster (GOMCP_REDIS_CLUSTER) and a command that restarts one of its nodes (GOMCP_REDIS_RESTART), which .ci/redis.sh gives")
	}
	addr := "cluster " + u
	admin, ok := newClient(t, addr).(*goredis.ClusterClient)
	if !ok {
		t.Fatal("GOMCP_REDIS_CLUSTER did not give a cluster client")
	}
	defer admin.Close()
	flush(t, admin)
	ctx := t.Context()
	bs := []*redis.Backend{newBackend(t, addr), newBackend(t, addr), newBackend(t, addr)}

	// Sixteen sessions, whose keys and route channels spread over the
	// nodes, each subscribed to by every backend, with state and events.
	const sessions = 16
	routed, bus := subscribeEverywhere(t, bs, sessions)
	storeSessions(t, bs, sessions)
	for _, node := range primariesOf(t, admin) {
		if out, err := exec.Command(restart, node).CombinedOutput(); err != nil {
			t.Fatalf("restarting %s: %v\n%s", node, err, out)
		}
		// Routed messages reach every backend's subscription again.
		for s := range sessions {
			id := fmt.Sprint("s", s)
			deliverAgain(t, fmt.Sprintf("session %s after %s restarted", id, node), routed, []string{"0", "1", "2"}, func(tag string) bool {
				n, err := bs[0].SessionRouter().PublishCount(ctx, id, &mcp.SessionMessage{Kind: mcp.RouteState, Data: []byte(tag)})
				return err == nil && n == 3
			})
		}
		deliverAgain(t, fmt.Sprintf("the bus after %s restarted", node), bus, []string{"0", "1", "2"}, func(tag string) bool {
			return bs[1].EventBus().Publish(ctx, &mcp.BusEvent{Kind: mcp.BusResourceUpdated, URI: tag}) == nil
		})
	}
	checkKeptAfterRestarts(t, bs, sessions)
}

// subscribeEverywhere subscribes each backend (its index is the first word
// of what it receives) to the route of sessions s0 to s<n-1> and to the
// event bus; what they receive arrives on routed and bus.
func subscribeEverywhere(t *testing.T, bs []*redis.Backend, n int) (routed, bus chan string) {
	t.Helper()
	ctx := t.Context()
	routed, bus = make(chan string, 1024), make(chan string, 64)
	for i, b := range bs {
		for s := range n {
			unsub, err := b.SessionRouter().Subscribe(ctx, fmt.Sprint("s", s), func(m *mcp.SessionMessage) {
				routed <- fmt.Sprint(i, " ", string(m.Data))
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(unsub)
		}
		unsub, err := b.EventBus().Subscribe(ctx, func(e *mcp.BusEvent) { bus <- fmt.Sprint(i, " ", e.URI) })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(unsub)
	}
	return routed, bus
}

// storeSessions stores, for sessions s0 to s<n-1>, a session state (level
// error), two events and a working task, through different backends, and
// waits until the events are written.
func storeSessions(t *testing.T, bs []*redis.Backend, n int) {
	t.Helper()
	ctx := t.Context()
	for s := range n {
		id := fmt.Sprint("s", s)
		if err := bs[0].SessionStore().Save(ctx, id, &mcp.SessionState{ProtocolVersion: "2025-11-25", LogLevel: "error"}, time.Hour); err != nil {
			t.Fatal(err)
		}
		for e := range 2 {
			if err := bs[1].EventStore().Append(ctx, id, "1", fmt.Appendf(nil, `{"e":%d}`, e)); err != nil {
				t.Fatal(err)
			}
		}
		if err := bs[2].TaskStore().Put(ctx, &mcp.DetailedTask{TaskID: id, Status: mcp.TaskStatusWorking}, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	for range bs[1].EventStore().After(ctx, "s0", "1", 0) { // waits until its queued events are written
	}
}

// primariesOf returns the addresses of the cluster's primaries, at least
// two.
func primariesOf(t *testing.T, admin *goredis.ClusterClient) []string {
	t.Helper()
	var masters []string
	var mu sync.Mutex
	err := admin.ForEachMaster(t.Context(), func(_ context.Context, m *goredis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		masters = append(masters, m.Options().Addr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(masters) < 2 {
		t.Fatalf("a cluster of %d primaries", len(masters))
	}
	return masters
}

// checkKeptAfterRestarts checks that what storeSessions stored is all
// there, read through other backends than the ones that wrote it.
func checkKeptAfterRestarts(t *testing.T, bs []*redis.Backend, n int) {
	t.Helper()
	ctx := t.Context()
	for s := range n {
		id := fmt.Sprint("s", s)
		st, err := bs[2].SessionStore().Load(ctx, id, time.Hour)
		if err != nil || st.LogLevel != "error" {
			t.Errorf("session %s after the restarts: %+v, %v", id, st, err)
		}
		var events int
		for _, err := range bs[2].EventStore().After(ctx, id, "1", 0) {
			if err != nil {
				t.Errorf("events of %s after the restarts: %v", id, err)
				break
			}
			events++
		}
		if events != 2 {
			t.Errorf("session %s has %d events after the restarts, want 2", id, events)
		}
		if task, err := bs[0].TaskStore().Get(ctx, id); err != nil || task.Status != mcp.TaskStatusWorking {
			t.Errorf("task %s after the restarts: %+v, %v", id, task, err)
		}
	}
}

// deliverAgain publishes (with send, given a fresh tag) until a message
// reaches each of the backends named in want, within 30 s: a node
// restarting refuses commands, and subscriptions are made again once it
// serves.
func deliverAgain(t *testing.T, what string, got <-chan string, want []string, send func(tag string) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for try := 0; ; try++ {
		tag := fmt.Sprintf(`"%s-%d"`, what, try)
		if send(tag) {
			seen := map[string]bool{}
			timeout := time.After(500 * time.Millisecond)
		collect:
			for len(seen) < len(want) {
				select {
				case m := <-got:
					if b, rest, _ := strings.Cut(m, " "); rest == tag {
						seen[b] = true
					}
				case <-timeout:
					break collect
				}
			}
			if len(seen) == len(want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no message reached all of backends %v within 30 s", what, want)
		}
		time.Sleep(100 * time.Millisecond) // the node is still starting
	}
}
