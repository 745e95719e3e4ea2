package bench

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// scaleFanoutStreams is how many notification streams
// BenchmarkScaleOutFanOut spreads over its three instances.
const scaleFanoutStreams = 1000

// BenchmarkScaleOutFanOut measures how long a tool list change made on one
// of three instances sharing a Redis (the redis module's event bus, and
// its session store and router in the legacy era) takes to reach 1,000
// notification streams spread evenly over the instances:
// subscriptions/listen streams in 2026-07-28, sessions' GET streams in
// the legacy era. Each op is one change, made on the first instance; the
// figures are the delivery times of every stream and op, from the moment
// the change was asked (p50, p99, max). The instances are child processes
// with Go's default GOMAXPROCS, as the server of BenchmarkFanout, the
// single-instance figure (with GOMAXPROCS=1, as in BenchmarkScaleOut, one
// P writes all of an instance's streams and a garbage collection during a
// change delays them all: p99 went from about 35 ms to over 100 ms in
// some runs on a loaded two-core machine); the streams' readers run
// in this one and connect to the instances directly, stream i to
// instance i mod 3, since a load balancer in this process too would
// share its two cores with the readers (a legacy session's requests all
// go to the instance of its stream: the session store is exercised by
// BenchmarkScaleOut). Redis is found or started as for
// BenchmarkScaleOut; without one the benchmark is skipped. The ns/op
// figure means nothing here.
func BenchmarkScaleOutFanOut(b *testing.B) {
	for _, era := range Eras {
		b.Run(fmt.Sprintf("%s/n%d/%s", era, scaleFanoutStreams, "ours"), func(b *testing.B) {
			benchScaleOutFanOut(b, era, scaleFanoutStreams)
		})
	}
}

func benchScaleOutFanOut(b *testing.B, era Era, n int) {
	ctx := context.Background()
	addr, stop, err := benchRedis()
	if err != nil {
		b.Skip(err)
	}
	defer stop()
	rdb := goredis.NewClient(&goredis.Options{Addr: addr})
	defer rdb.Close()
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		b.Fatal(err)
	}
	var children []*Child
	defer func() {
		for _, c := range children {
			if err := c.Stop(); err != nil {
				b.Error(err)
			}
		}
	}()
	for range 3 {
		c, err := startScaleChild(era, addr)
		if err != nil {
			b.Fatal(err)
		}
		children = append(children, c)
	}
	control := newHTTPClient(2)
	defer control.CloseIdleConnections()
	hc := newStreamClient(n)
	defer hc.CloseIdleConnections()
	var rounds atomic.Pointer[Round]
	watchers, wait, err := openSpreadStreams(ctx, children, era, hc, n, &rounds)
	defer func() {
		for _, w := range watchers {
			w.Close()
		}
		wait()
	}()
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		round := NewRound(n)
		rounds.Store(round)
		if err := children[0].Control(ctx, control, NotifyToolsPath); err != nil {
			b.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		got, missing := round.Wait(wctx)
		cancel()
		if missing > 0 {
			b.Fatalf("change %d: %d of %d streams got no %s within 30s", i, missing, n, ToolsChanged)
		}
		lat = append(lat, got...)
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(percentile(lat, 50)), "p50-ns")
	b.ReportMetric(float64(percentile(lat, 99)), "p99-ns")
	b.ReportMetric(float64(lat[len(lat)-1]), "max-ns")
}

// openSpreadStreams opens n tools list streams, stream i to instance
// i mod len(instances), 64 at a time, and returns them with a function
// that waits for their readers to end once they are closed.
func openSpreadStreams(ctx context.Context, instances []*Child, era Era, hc *http.Client, n int, rounds *atomic.Pointer[Round]) ([]*StreamWatcher, func(), error) {
	watchers := make([]*StreamWatcher, n)
	var readers, openers sync.WaitGroup
	errs := make(chan error, 64)
	var next atomic.Int64
	for range 64 {
		openers.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				w, err := OpenStream(ctx, instances[i%len(instances)].URL, era, ToolsChanged, hc, i)
				if err != nil {
					errs <- fmt.Errorf("stream %d: %w", i, err)
					return
				}
				watchers[i] = w
				ready := make(chan struct{})
				readers.Go(func() { w.Watch(ToolsChanged, rounds, func() { close(ready) }) })
				select {
				case <-ready:
				case <-time.After(10 * time.Second):
					errs <- fmt.Errorf("stream %d: not acknowledged within 10s", i)
					return
				}
			}
		})
	}
	openers.Wait()
	close(errs)
	opened := slices.DeleteFunc(watchers, func(w *StreamWatcher) bool { return w == nil })
	return opened, readers.Wait, <-errs
}
