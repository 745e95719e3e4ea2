package bench

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp/storetest"
)

// BenchmarkScaleOut measures what several instances behind a load balancer
// cost per tools/call, in server CPU: the echo tool called through a
// round-robin proxy (storetest.RoundRobin, in this process) from 8
// concurrent raw sessions. The targets:
//
//   - "ours": three instances sharing one Redis through the redis module's
//     backends (session store, session router, event bus, event store and
//     task store), each with its own server, handler, listener and Redis
//     client, as three machines would run them, but all three in one child
//     process with one CPU (GOMAXPROCS=1), as the single instance. Its
//     ratio to "single" is what the shared state costs per call: the
//     scale-out goals are on it.
//   - "procs3": the same three instances, each in a child process of its
//     own with GOMAXPROCS=1 (three one-CPU machines on this machine's two
//     cores). Informational: it costs more than "ours" for a reason that is
//     not the shared state (below).
//   - "redis1": one instance on that Redis, in a child process.
//   - "memory1": one instance with the in-memory event store (resumable
//     streams, as with Redis), in a child process.
//   - "single": one instance with no shared state and no event store, in a
//     child process: what "ours" is divided by.
//   - "plain3", in 2026-07-28 only: three instances, each in a child
//     process, sharing nothing but their requestState key (a valid
//     deployment for stateless calls; a legacy session needs a shared
//     store).
//
// The figure server-cpu-ns/call is the CPU time (user and system) of all
// the child processes per call (each process counted once, however many
// instances it serves), and redis-cpu-ns/call the Redis server's own (from
// INFO cpu). Redis is the one at GOMCP_REDIS_ADDR, else a redis-server
// started for the benchmark on a free port with persistence off; without
// either the Redis targets are skipped.
//
// Every child process, of every target, runs with GOMAXPROCS=1
// (scaleInstanceProcs): each stands for a machine with one CPU. With the
// default GOMAXPROCS of a two-core machine, three processes would run six
// Ps on two cores, whose idle Ps spin looking for work on cores the other
// processes need, a cost three machines would not have. What no setting
// removes is that three processes sharing two cores, each idle more often
// than one process carrying all the calls, pay more per call for waking up
// and for cold caches (a fifth to a quarter of their CPU): "plain3", which
// shares no state, costs about what "procs3" does in 2026-07-28. Three
// machines under a load that keeps each busy would not pay it, which is
// why the goals are on "ours", and "procs3" is shown beside it.
func BenchmarkScaleOut(b *testing.B) {
	for _, era := range Eras {
		targets := []string{"ours", "procs3", "redis1", "memory1", "single"}
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

// scaleInstanceProcs is the environment setting of every scale-out child
// process: one P, as on a machine with one CPU (see BenchmarkScaleOut).
const scaleInstanceProcs = "GOMAXPROCS=1"

// startScaleTarget starts the child processes of a BenchmarkScaleOut
// target and returns them with the instances' URLs, and connects to Redis
// for the targets that use it (then flushed); all are stopped when the
// benchmark function returns.
func startScaleTarget(b *testing.B, ctx context.Context, era Era, target string) (children []*Child, urls []string, rdb *goredis.Client) {
	b.Cleanup(func() {
		for _, c := range children {
			if err := c.Stop(); err != nil {
				b.Error(err)
			}
		}
	})
	start := func(procs, instances int, redisAddr string) {
		for range procs {
			c, err := startScaleChildren(era, instances, redisAddr, scaleInstanceProcs)
			if err != nil {
				b.Fatal(err)
			}
			children = append(children, c.Child)
			urls = append(urls, c.urls...)
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
		return children, []string{c.URL}, nil
	case "memory1":
		start(1, 1, "")
		return children, urls, nil
	case "plain3":
		start(3, 1, "")
		return children, urls, nil
	}
	addr, stop, err := benchRedis()
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(stop)
	rdb = goredis.NewClient(&goredis.Options{Addr: addr})
	b.Cleanup(func() { rdb.Close() })
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		b.Fatal(err)
	}
	switch target {
	case "redis1":
		start(1, 1, addr)
	case "procs3":
		start(3, 1, addr)
	case "ours":
		start(1, 3, addr)
	default:
		b.Fatalf("unknown scale-out target %q", target)
	}
	return children, urls, rdb
}

func benchScaleOut(b *testing.B, era Era, target string, clients int) {
	ctx := context.Background()
	children, urls, rdb := startScaleTarget(b, ctx, era, target)
	var targets []*url.URL
	for _, s := range urls {
		u, err := url.Parse(s)
		if err != nil {
			b.Fatal(err)
		}
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
	if err := driveCalls(max(b.N/10, 2*clients*len(targets)), clients, call); err != nil {
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
