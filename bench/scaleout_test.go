package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/redis"
)

// BenchmarkScaleOut measures what several instances behind a load balancer
// cost per tools/call, in server CPU: the echo tool called through a
// round-robin proxy (storetest.RoundRobin, in this process) from 8
// concurrent raw sessions, either to three instances sharing one Redis
// through the redis module's backends ("ours": session store, session
// router, event bus, event store and task store), to one instance so
// configured ("redis1"), to one instance with the in-memory event store
// ("memory1": resumable streams, as with Redis), to one instance with no
// shared state and no event store ("single"), or, in 2026-07-28 only, to
// three instances sharing nothing but their requestState key ("plain3":
// a valid deployment for stateless calls, which shows what the number of
// processes costs apart from the shared state; a legacy session needs a
// shared store). Each instance is a child process; the figure
// server-cpu-ns/call is the CPU time (user and system) of all of them per
// call, and redis-cpu-ns/call the Redis server's own (from INFO cpu).
// Redis is the one at GOMCP_REDIS_ADDR, else a redis-server started for
// the benchmark on a free port with persistence off; without either the
// Redis targets are skipped.
//
// Every instance, of every target, runs with GOMAXPROCS=1
// (scaleInstanceProcs): each stands for a machine of its own with one
// CPU. With the default GOMAXPROCS of a two-core machine, three instances
// would run six Ps on two cores, whose idle Ps spin looking for work on
// cores the other instances need, a cost three machines would not have.
// The setting lowers the CPU per call of every target, a single
// instance's too, by 10 to 20%, and leaves their ratios about the same.
// What no setting removes is that three processes sharing this machine's
// two cores, each idle more often than one process carrying all the
// calls, pay more per call for waking up and for cold caches: "plain3"
// costs about what "ours" does in 2026-07-28, where a call touches no
// shared state.
func BenchmarkScaleOut(b *testing.B) {
	for _, era := range Eras {
		targets := []string{"ours", "redis1", "memory1", "single"}
		if era == Modern {
			targets = append(targets, "plain3")
		}
		for _, target := range targets {
			b.Run(fmt.Sprintf("%s/c8/%s", era, target), func(b *testing.B) {
				benchScaleOut(b, era, target, 8)
			})
		}
	}
}

// scaleInstanceProcs is the environment setting of every scale-out
// instance: one P, as on a machine with one CPU (see BenchmarkScaleOut).
const scaleInstanceProcs = "GOMAXPROCS=1"

// scaleChildEnv names the environment variable that makes a benchmark
// binary a scale-out instance: its value is "<era> <redis address>".
const scaleChildEnv = "GOMCP_BENCH_SCALE_CHILD"

// scaleStateKey is the requestState key the instances share.
var scaleStateKey = []byte("bench-scale-out-state-key-32byte")

func init() {
	// A scale-out instance serves before TestMain runs: RunChildIfAsked
	// knows only single handlers.
	if spec := os.Getenv(scaleChildEnv); spec != "" {
		if err := serveScaleChild(spec); err != nil {
			fmt.Fprintln(os.Stderr, "bench scale-out child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// startScaleTarget starts the instances of a BenchmarkScaleOut target, and
// connects to Redis for the targets that use it (then flushed); both are
// stopped when the benchmark function returns.
func startScaleTarget(b *testing.B, ctx context.Context, era Era, target string) ([]*Child, *goredis.Client) {
	var children []*Child
	b.Cleanup(func() {
		for _, c := range children {
			if err := c.Stop(); err != nil {
				b.Error(err)
			}
		}
	})
	start := func(n int, redisAddr string) {
		for range n {
			c, err := startScaleChild(era, redisAddr, scaleInstanceProcs)
			if err != nil {
				b.Fatal(err)
			}
			children = append(children, c)
		}
	}
	switch target {
	case "single":
		name := Ours{}.Name()
		c, err := startChildWithEnv(name, childEnv+"="+name+":"+era.String(), scaleInstanceProcs)
		if err != nil {
			b.Fatal(err)
		}
		children = append(children, c)
		return children, nil
	case "memory1":
		start(1, "")
		return children, nil
	case "plain3":
		start(3, "")
		return children, nil
	}
	addr, stop, err := benchRedis()
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(stop)
	rdb := goredis.NewClient(&goredis.Options{Addr: addr})
	b.Cleanup(func() { rdb.Close() })
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		b.Fatal(err)
	}
	if target == "redis1" {
		start(1, addr)
	} else {
		start(3, addr)
	}
	return children, rdb
}

func benchScaleOut(b *testing.B, era Era, target string, clients int) {
	ctx := context.Background()
	children, rdb := startScaleTarget(b, ctx, era, target)
	var targets []*url.URL
	for _, c := range children {
		u, _ := url.Parse(c.URL)
		targets = append(targets, u)
	}
	proxy := httptest.NewServer(storetest.RoundRobin(targets))
	defer proxy.Close()
	hc := newHTTPClient(clients)
	defer hc.CloseIdleConnections()
	raws := make([]*RawClient, clients)
	for i := range raws {
		raws[i] = &RawClient{URL: proxy.URL + "/mcp", HTTP: hc, Era: era}
		if err := raws[i].Start(ctx); err != nil {
			b.Fatal(err)
		}
		defer raws[i].Close()
	}
	call := func(w int) error { return raws[w].Call(ctx) }
	if err := driveCalls(max(b.N/10, 2*clients*len(children)), clients, call); err != nil {
		b.Fatal(err)
	}
	cpu := func() (server, redisUsed time.Duration) {
		for _, c := range children {
			d, err := c.CPU(ctx, hc)
			if err != nil {
				b.Fatal(err)
			}
			server += d
		}
		if rdb != nil {
			d, err := redisCPU(ctx, rdb)
			if err != nil {
				b.Fatal(err)
			}
			redisUsed = d
		}
		return server, redisUsed
	}
	s0, r0 := cpu()
	b.ResetTimer()
	if err := driveCalls(b.N, clients, call); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	s1, r1 := cpu()
	b.ReportMetric(float64(s1-s0)/float64(b.N), "server-cpu-ns/call")
	b.ReportMetric(float64(r1-r0)/float64(b.N), "redis-cpu-ns/call")
}

// startScaleChild starts a copy of the benchmark binary serving our
// handler of era with the Redis backends on addr (in-memory ones when
// addr is empty), with env added to its environment.
func startScaleChild(era Era, addr string, env ...string) (*Child, error) {
	return startChildWithEnv("scale-out", append([]string{scaleChildEnv + "=" + era.String() + " " + addr}, env...)...)
}

// serveScaleChild serves as one instance of a scale-out benchmark: the
// echo tool of Ours, with every shared piece on the Redis at the
// spec's address, or with the in-memory event store if it has none. All
// instances share the requestState key.
func serveScaleChild(spec string) error {
	_, addr, _ := strings.Cut(spec, " ")
	opts := oursSubscriptions()
	hopts := &mcp.StreamableHTTPOptions{MaxSessions: 20000, EventStore: mcp.NewMemoryEventStore(nil)}
	opts.RequestStateKey = scaleStateKey
	if addr != "" {
		client := goredis.NewClient(&goredis.Options{Addr: addr})
		defer client.Close()
		be := redis.New(client, nil)
		defer be.Close()
		opts.EventBus = be.EventBus()
		opts.Tasks = &mcp.TaskOptions{Store: be.TaskStore()}
		hopts.SessionStore, hopts.SessionRouter, hopts.EventStore = be.SessionStore(), be.SessionRouter(), be.EventStore()
	}
	s := mcp.NewServer("bench", "v0.0.1", opts)
	defer s.Close()
	s.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, hopts)
	defer h.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	if path := os.Getenv(childProfileEnv); path != "" {
		stop, err := startCPUProfile(path + "." + strconv.Itoa(os.Getpid()))
		if err != nil {
			return err
		}
		defer stop()
	}
	hs := &http.Server{Handler: withCPU(withControl(h, &oursServer{s: s})), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or dies
	return hs.Close()
}

// benchRedis returns the address of the Redis of a benchmark: the one at
// GOMCP_REDIS_ADDR, else a redis-server started on a free port, which stop
// ends.
func benchRedis() (addr string, stop func(), err error) {
	if addr := os.Getenv("GOMCP_REDIS_ADDR"); addr != "" {
		return addr, func() {}, nil
	}
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, fmt.Errorf("no Redis: set GOMCP_REDIS_ADDR or install redis-server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr = ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(path, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	c := goredis.NewClient(&goredis.Options{Addr: addr})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("redis-server on %s: %w", addr, err)
		}
	}
}

// redisCPU returns the CPU time (user and system) the Redis server has
// used so far, from INFO cpu.
func redisCPU(ctx context.Context, c *goredis.Client) (time.Duration, error) {
	info, err := c.Info(ctx, "cpu").Result()
	if err != nil {
		return 0, err
	}
	var total float64
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && (k == "used_cpu_sys" || k == "used_cpu_user") {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return 0, fmt.Errorf("INFO cpu %s: %w", k, err)
			}
			total += f
		}
	}
	return time.Duration(total * float64(time.Second)), nil
}
