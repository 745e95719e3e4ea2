package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/redis"
)

// scaleChildEnv names the environment variable that makes a benchmark
// binary serve scale-out instances: its value is
// "<era> <instances> <redis address>" (the address empty for the in-memory
// event store and no shared state).
const scaleChildEnv = "GOMCP_BENCH_SCALE_CHILD"

// scaleStateKey is the requestState key the instances share.
var scaleStateKey = []byte("bench-scale-out-state-key-32byte")

func init() {
	// A scale-out child serves before TestMain runs: RunChildIfAsked
	// knows only single handlers.
	if spec := os.Getenv(scaleChildEnv); spec != "" {
		if err := serveScaleChild(spec); err != nil {
			fmt.Fprintln(os.Stderr, "bench scale-out child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// A scaleChild is a child process serving one or more scale-out
// instances, each on a listener of its own.
type scaleChild struct {
	*Child // its URL is the first instance's, which also answers CPUPath

	// urls are the instances' endpoints, urls[0] == Child.URL.
	urls []string
}

// startScaleChild starts a copy of the benchmark binary serving one
// instance of our handler of era with the Redis backends on addr
// (in-memory ones when addr is empty), with env added to its environment.
func startScaleChild(era Era, addr string, env ...string) (*Child, error) {
	c, err := startScaleChildren(era, 1, addr, env...)
	if err != nil {
		return nil, err
	}
	return c.Child, nil
}

// startScaleChildren starts a copy of the benchmark binary serving n
// instances as startScaleChild does, all in that one process: n servers,
// handlers and listeners, each instance with its own Redis client and
// backends, as n machines would run them.
func startScaleChildren(era Era, n int, addr string, env ...string) (*scaleChild, error) {
	spec := fmt.Sprintf("%s=%s %d %s", scaleChildEnv, era, n, addr)
	c, err := startChildWithEnv("scale-out", append([]string{spec}, env...)...)
	if err != nil {
		return nil, err
	}
	urls := strings.Fields(c.URL)
	if len(urls) != n {
		c.Stop()
		return nil, fmt.Errorf("bench scale-out child: %d URLs for %d instances: %q", len(urls), n, c.URL)
	}
	c.URL = urls[0]
	return &scaleChild{Child: c, urls: urls}, nil
}

// serveScaleChild serves as the scale-out instances spec asks for,
// printing their URLs on one line, until stdin closes.
func serveScaleChild(spec string) error {
	fields := strings.SplitN(spec, " ", 3)
	if len(fields) != 3 {
		return fmt.Errorf("spec %q is not \"<era> <instances> <redis address>\"", spec)
	}
	n, err := strconv.Atoi(fields[1])
	if err != nil || n < 1 || n > 16 {
		return fmt.Errorf("spec %q: instances must be 1 to 16", spec)
	}
	addr := fields[2]
	var closers []func() error
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}()
	var urls []string
	for i := range n {
		h, done, err := newScaleInstance(addr)
		if err != nil {
			return err
		}
		closers = append(closers, done)
		if i == 0 {
			h = withCPU(h) // the process's CPU, counted once
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		closers = append(closers, hs.Close)
		urls = append(urls, "http://"+ln.Addr().String())
	}
	if path := os.Getenv(childProfileEnv); path != "" {
		stop, err := startCPUProfile(path + "." + strconv.Itoa(os.Getpid()))
		if err != nil {
			return err
		}
		defer stop()
	}
	fmt.Println(strings.Join(urls, " "))
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or dies
	return nil
}

// newScaleInstance returns the handler of one scale-out instance, with
// the control paths of withControl, and the function that closes it: the
// echo tool of Ours, with every shared piece (session store, session
// router, event bus, event store, task store) on a Redis client of its own
// to the Redis at addr, or with only the in-memory event store if addr is
// empty. All instances share the requestState key.
func newScaleInstance(addr string) (http.Handler, func() error, error) {
	opts := oursSubscriptions()
	hopts := &mcp.StreamableHTTPOptions{MaxSessions: 20000, EventStore: mcp.NewMemoryEventStore(nil)}
	opts.RequestStateKey = scaleStateKey
	var closers []func() error
	if addr != "" {
		client := goredis.NewClient(&goredis.Options{Addr: addr})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := client.Ping(ctx).Err()
		cancel()
		if err != nil {
			client.Close()
			return nil, nil, fmt.Errorf("redis %s: %w", addr, err)
		}
		be := redis.New(client, nil)
		closers = append(closers, client.Close, be.Close)
		opts.EventBus = be.EventBus()
		opts.Tasks = &mcp.TaskOptions{Store: be.TaskStore()}
		hopts.SessionStore, hopts.SessionRouter, hopts.EventStore = be.SessionStore(), be.SessionRouter(), be.EventStore()
	}
	s := mcp.NewServer("bench", "v0.0.1", opts)
	s.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, hopts)
	closers = append(closers, s.Close, h.Close)
	done := func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	return withControl(h, &oursServer{s: s}), done, nil
}

// TestScaleChildren starts one child serving three scale-out instances:
// each has a listener of its own that serves MCP, only the first answers
// CPUPath (so the process's CPU is counted once), and with Redis a legacy
// session made through one instance is served by the others.
func TestScaleChildren(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	hc := newHTTPClient(2)
	defer hc.CloseIdleConnections()
	start := func(t *testing.T, addr string) *scaleChild {
		c, err := startScaleChildren(Modern, 3, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := c.Stop(); err != nil {
				t.Error(err)
			}
		})
		return c
	}
	t.Run("stateless", func(t *testing.T) {
		c := start(t, "")
		if len(c.urls) != 3 || c.urls[0] == c.urls[1] || c.urls[1] == c.urls[2] || c.urls[0] == c.urls[2] {
			t.Fatalf("urls %q, want 3 distinct", c.urls)
		}
		for i, u := range c.urls {
			raw := &RawClient{URL: u + "/mcp", HTTP: hc, Era: Modern}
			if err := raw.Start(ctx); err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if err := raw.Call(ctx); err != nil {
				t.Errorf("instance %d: call: %v", i, err)
			}
			raw.Close()
			cpu := &Child{URL: u, name: "instance " + strconv.Itoa(i)}
			_, err := cpu.CPU(ctx, hc)
			if got, want := err == nil, i == 0; got != want {
				t.Errorf("instance %d: CPU answered %v (error %v), want %v", i, got, err, want)
			}
		}
	})
	t.Run("legacy on Redis", func(t *testing.T) {
		addr, stop, err := benchRedis()
		if err != nil {
			t.Skip(err)
		}
		defer stop()
		c := start(t, addr)
		var targets []*url.URL
		for _, s := range c.urls {
			u, _ := url.Parse(s)
			targets = append(targets, u)
		}
		proxy := httptest.NewServer(storetest.RoundRobin(targets))
		defer proxy.Close()
		raw := &RawClient{URL: proxy.URL + "/mcp", HTTP: hc, Era: Legacy}
		if err := raw.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for i := range 6 { // twice through every instance
			if err := raw.Call(ctx); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
	})
}
