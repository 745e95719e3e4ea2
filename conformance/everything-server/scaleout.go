package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	mcpredis "github.com/gomcp/sdk/redis"
)

// scaleOut is what -redis (or -redis-cluster, -redis-sentinel) and
// -state-key configure: the state every instance of the server shares, so
// that any number of instances behind a load balancer serve as one. A nil
// *scaleOut changes nothing.
type scaleOut struct {
	client  goredis.UniversalClient
	backend *mcpredis.Backend
	log     *mcpredis.EventLog // test.tick's (scaleout_events.go)
	key     []byte
	origin  string // this instance, in announcements
	stop    func()
}

// shared is the process's scaleOut, for the tools that change the lists.
var shared *scaleOut

// changesChannel carries the list changes of the trigger tools between
// instances: every instance must serve the same lists, so a change made
// on one is made on all, as a real deployment applies its registrations
// everywhere.
const changesChannel = "everything-server:changes"

// redisFlags are the flags naming the Redis the instances share: at most
// one is set.
type redisFlags struct {
	single   string // -redis: redis://host:port/db (go-redis ParseURL)
	cluster  string // -redis-cluster: redis://host:port?addr=host:port&... (ParseClusterURL)
	sentinel string // -redis-sentinel: redis://sentinel:port?master_name=NAME (ParseFailoverURL)
}

// client returns a client of the Redis the flags name, the name of the
// flag that named it, or nil when none is set.
func (f redisFlags) client() (goredis.UniversalClient, string, error) {
	var set []string
	for _, v := range []struct{ name, value string }{{"-redis", f.single}, {"-redis-cluster", f.cluster}, {"-redis-sentinel", f.sentinel}} {
		if v.value != "" {
			set = append(set, v.name)
		}
	}
	switch {
	case len(set) == 0:
		return nil, "", nil
	case len(set) > 1:
		return nil, "", fmt.Errorf("%s: give one Redis only", strings.Join(set, " and "))
	case f.cluster != "":
		o, err := goredis.ParseClusterURL(f.cluster)
		if err != nil {
			return nil, set[0], fmt.Errorf("-redis-cluster: %w", err)
		}
		return goredis.NewClusterClient(o), set[0], nil
	case f.sentinel != "":
		o, err := goredis.ParseFailoverURL(f.sentinel)
		if err != nil {
			return nil, set[0], fmt.Errorf("-redis-sentinel: %w", err)
		}
		return goredis.NewFailoverClient(o), set[0], nil
	}
	o, err := goredis.ParseURL(f.single)
	if err != nil {
		return nil, set[0], fmt.Errorf("-redis: %w", err)
	}
	return goredis.NewClient(o), set[0], nil
}

// set reports whether a Redis is named.
func (f redisFlags) set() bool { return f.single != "" || f.cluster != "" || f.sentinel != "" }

// newScaleOut parses the flags; it returns nil when none is set.
func newScaleOut(redis redisFlags, keyHex string) (*scaleOut, error) {
	if !redis.set() && keyHex == "" {
		return nil, nil
	}
	s := &scaleOut{}
	if keyHex != "" {
		key, err := hex.DecodeString(keyHex)
		if err != nil {
			return nil, fmt.Errorf("-state-key: not hex: %w", err)
		}
		if len(key) < 32 {
			return nil, fmt.Errorf("-state-key: %d bytes, want at least 32", len(key))
		}
		s.key = key
	}
	if !redis.set() {
		return s, nil
	}
	client, flag, err := redis.client()
	if err != nil {
		return nil, err
	}
	if s.key == nil {
		_ = client.Close()
		return nil, fmt.Errorf("%s needs -state-key: every instance must verify the requestState any other minted", flag)
	}
	s.client = client
	s.backend = mcpredis.New(s.client, nil)
	s.log = s.backend.EventLog(nil)
	s.origin = rand.Text()
	return s, nil
}

// tuneServer sets the server's shared requestState key, event bus and
// task store.
func (s *scaleOut) tuneServer(o *mcp.ServerOptions) {
	if s == nil {
		return
	}
	o.RequestStateKey = s.key
	if s.backend == nil {
		return
	}
	o.EventBus = s.backend.EventBus()
	tasks := mcp.TaskOptions{}
	if o.Tasks != nil {
		tasks = *o.Tasks
	}
	tasks.Store = s.backend.TaskStore()
	o.Tasks = &tasks
}

// tuneHandler sets the handler's shared session store, router and event
// store.
func (s *scaleOut) tuneHandler(o *mcp.StreamableHTTPOptions) *mcp.StreamableHTTPOptions {
	if s == nil || s.backend == nil {
		return o
	}
	o.SessionStore = s.backend.SessionStore()
	o.SessionRouter = s.backend.SessionRouter()
	o.EventStore = s.backend.EventStore()
	return o
}

// close ends what newScaleOut and follow opened: the list-change
// subscription, the event log's, the backend and the client.
func (s *scaleOut) close() {
	if s == nil || s.backend == nil {
		return
	}
	if s.stop != nil {
		s.stop()
	}
	_ = s.log.Close()
	_ = s.backend.Close()
	_ = s.client.Close()
}

// nextChange returns the number of the next change of a list: one count
// for all instances on Redis, else local.
func (s *scaleOut) nextChange(ctx context.Context, kind string, local *atomic.Int64) int64 {
	if s == nil || s.client == nil {
		return local.Add(1)
	}
	n, err := s.client.Incr(ctx, "everything-server:"+kind+"-changes").Result()
	if err != nil {
		log.Printf("everything-server: counting a %s change on Redis: %v", kind, err)
		return local.Add(1)
	}
	local.Store(n)
	return n
}

// announce tells the other instances to make change n of a list.
func (s *scaleOut) announce(ctx context.Context, kind string, n int64) {
	if s == nil || s.client == nil {
		return
	}
	msg := s.origin + " " + kind + " " + strconv.FormatInt(n, 10)
	publish := s.client.Publish
	if s.cluster() {
		publish = s.client.SPublish
	}
	if err := publish(ctx, changesChannel, msg).Err(); err != nil {
		log.Printf("everything-server: announcing a %s change: %v", kind, err)
	}
}

// cluster reports whether the Redis is a Redis Cluster, where the
// changes travel by sharded pub/sub: through the node serving the
// channel's slot, in order (a plain PUBLISH goes to any node).
func (s *scaleOut) cluster() bool {
	_, ok := s.client.(*goredis.ClusterClient)
	return ok
}

// follow makes on srv the list changes other instances announce.
func (s *scaleOut) follow(srv *mcp.Server) {
	if s == nil || s.client == nil {
		return
	}
	subscribe := s.client.Subscribe
	if s.cluster() {
		subscribe = s.client.SSubscribe
	}
	ps := subscribe(context.Background(), changesChannel)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := ps.Receive(ctx); err != nil { // the confirmation
		log.Printf("everything-server: following list changes: %v", err)
	}
	s.stop = func() { _ = ps.Close() }
	go func() {
		for m := range ps.Channel() {
			f := strings.Fields(m.Payload)
			if len(f) != 3 || f[0] == s.origin {
				continue
			}
			n, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				continue
			}
			switch f[1] {
			case "tool":
				applyToolChange(srv, n)
			case "prompt":
				applyPromptChange(srv, n)
			}
		}
	}()
}
