// Command scale-out runs one MCP server as three instances behind a
// round-robin load balancer, sharing their state on Redis, with one
// command:
//
//	go run ./examples/scale-out                       # an in-process Redis (miniredis)
//	go run ./examples/scale-out -redis redis://127.0.0.1:6379/0
//	go run ./examples/scale-out -redis-cluster 'redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002'
//	go run ./examples/scale-out -redis-sentinel 'redis://127.0.0.1:26379?master_name=mymaster'
//
// Clients connect to http://localhost:8080/mcp (-http to change it). Each
// request goes to the next instance; nothing is sticky, and clients of
// either protocol era see one server: a session started on one instance
// is served by all, a tool's question to the user (elicitation) is
// answered through any instance, and adding a tool on one instance (the
// "add_tool" tool) notifies clients connected to all of them. In a real
// deployment each instance is its own process or machine with the same
// Redis flag and requestState key; here they share a process to fit one
// command.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/redis"
)

func main() {
	httpAddr := flag.String("http", "localhost:8080", "address of the load balancer")
	var r redisFlags
	flag.StringVar(&r.single, "redis", "", "Redis URL (redis://host:port/db); with no Redis flag one starts in-process")
	flag.StringVar(&r.cluster, "redis-cluster", "", "Redis Cluster URL: one node, the others as addr parameters (redis://host:port?addr=host:port&addr=...)")
	flag.StringVar(&r.sentinel, "redis-sentinel", "", "Sentinel URL: a sentinel, the master's name, other sentinels as addr parameters (redis://host:port?master_name=NAME&addr=host:port)")
	n := flag.Int("instances", 3, "number of instances")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *httpAddr, r, *n); err != nil {
		log.Fatal(err)
	}
}

// redisFlags are the flags naming the Redis the instances share; at most
// one is set.
type redisFlags struct{ single, cluster, sentinel string }

// connector returns a function that makes a client of the Redis the flags
// name (each instance has its own, as each process of a real deployment
// does), and what to call that Redis.
func (f redisFlags) connector() (func() goredis.UniversalClient, string, error) {
	set := 0
	for _, v := range []string{f.single, f.cluster, f.sentinel} {
		if v != "" {
			set++
		}
	}
	switch {
	case set > 1:
		return nil, "", fmt.Errorf("-redis, -redis-cluster and -redis-sentinel: give one only")
	case f.cluster != "":
		o, err := goredis.ParseClusterURL(f.cluster)
		if err != nil {
			return nil, "", fmt.Errorf("-redis-cluster: %w", err)
		}
		return func() goredis.UniversalClient { return goredis.NewClusterClient(o) }, "Cluster " + f.cluster, nil
	case f.sentinel != "":
		o, err := goredis.ParseFailoverURL(f.sentinel)
		if err != nil {
			return nil, "", fmt.Errorf("-redis-sentinel: %w", err)
		}
		return func() goredis.UniversalClient { return goredis.NewFailoverClient(o) }, "Sentinel " + f.sentinel, nil
	}
	o, err := goredis.ParseURL(f.single)
	if err != nil {
		return nil, "", fmt.Errorf("-redis: %w", err)
	}
	return func() goredis.UniversalClient { return goredis.NewClient(o) }, f.single, nil
}

func run(ctx context.Context, addr string, r redisFlags, n int) error {
	if r == (redisFlags{}) {
		m := miniredis.NewMiniRedis()
		if err := m.Start(); err != nil {
			return err
		}
		defer m.Close()
		r.single = "redis://" + m.Addr() + "/0"
	}
	newClient, redisName, err := r.connector()
	if err != nil {
		return err
	}
	// The requestState key every instance shares (in production: from a
	// secret store, the same for all instances).
	key := make([]byte, 32)
	_, _ = rand.Read(key)

	var targets []*url.URL
	var stops []func()
	defer func() {
		for _, f := range stops {
			f()
		}
	}()
	for i := range n {
		u, stopInstance, err := startInstance(i, newClient, key)
		if err != nil {
			return err
		}
		stops = append(stops, stopInstance)
		targets = append(targets, u)
	}
	// A load balancer without affinity: each request goes to the next
	// instance.
	lb := storetest.RoundRobin(targets)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: lb, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second}
	log.Printf("%d instances behind http://%s/mcp (Redis %s)", n, ln.Addr(), redisName)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}

// startInstance starts one instance, with its own Redis client, on a free
// loopback port.
func startInstance(i int, newClient func() goredis.UniversalClient, key []byte) (*url.URL, func(), error) {
	// docs:region wiring
	client := newClient() // goredis.NewClient, NewClusterClient or NewFailoverClient
	b := redis.New(client, nil)
	server := mcp.NewServer("scale-out", "v1", &mcp.ServerOptions{
		EventBus:        b.EventBus(),
		RequestStateKey: key,
		Tasks:           &mcp.TaskOptions{Store: b.TaskStore()},
	})
	addTools(server, i)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		SessionStore:  b.SessionStore(),
		SessionRouter: b.SessionRouter(),
		EventStore:    b.EventStore(),
	})
	// docs:endregion
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("instance %d: %v", i, err)
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String())
	return u, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = handler.Shutdown(ctx)
		_ = hs.Shutdown(ctx)
		_ = server.Close()
		_ = b.Close()
		_ = client.Close()
	}, nil
}

// addTools gives an instance its tools: "whoami" tells which instance
// served the call, "confirm" asks the user a question, "add_tool" adds a
// tool on this instance (clients of every instance are told).
func addTools(s *mcp.Server, i int) {
	text := func(t string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(t)}}
	}
	obj := []byte(`{"type":"object"}`)
	var added atomic.Int64
	s.AddTools(
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "whoami", Description: "Says which instance served the call.", InputSchema: obj},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return text(fmt.Sprintf("instance %d", i)), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "confirm", Description: "Asks the user to confirm.", InputSchema: obj},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: fmt.Sprintf("Instance %d asks: proceed?", i),
					RequestedSchema: &mcp.ElicitationSchema{Type: "object", Properties: map[string]*mcp.PrimitiveSchema{"ok": {Type: "boolean"}}}})
				if err != nil {
					return nil, err
				}
				return text(fmt.Sprintf("instance %d got %s %v", i, res.Action, res.Content["ok"])), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "add_tool", Description: "Adds a tool on the instance that serves the call.", InputSchema: obj},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				name := fmt.Sprintf("extra_%d_%d", i, added.Add(1))
				ss.Server().AddTools(&mcp.ServerTool{Tool: &mcp.Tool{Name: name, InputSchema: obj},
					Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
						return text(name), nil
					}})
				return text("added " + name + " on instance " + fmt.Sprint(i)), nil
			}},
	)
}
