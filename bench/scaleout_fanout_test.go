package bench

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp/storetest"
)

// scaleFanoutStreams is how many notification streams
// BenchmarkScaleOutFanOut spreads over its three instances.
const scaleFanoutStreams = 1000

// BenchmarkScaleOutFanOut measures how long a tool list change made on one
// of three instances sharing a Redis (the redis module's event bus, and
// its session store and router in the legacy era) takes to reach 1,000
// notification streams opened through the round-robin proxy, so spread
// evenly over the instances: subscriptions/listen streams in 2026-07-28,
// sessions' GET streams in the legacy era. Each op is one change, made on
// the first instance; the figures are the delivery times of every stream
// and op, from the moment the change was asked (p50, p99, max). The
// instances are child processes, the streams' readers and the proxy run in
// this one. Redis is found or started as for BenchmarkScaleOut; without
// one the benchmark is skipped. The ns/op figure means nothing here.
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
	var targets []*url.URL
	for range 3 {
		c, err := startScaleChild(era, addr)
		if err != nil {
			b.Fatal(err)
		}
		children = append(children, c)
		u, _ := url.Parse(c.URL)
		targets = append(targets, u)
	}
	proxy := httptest.NewServer(storetest.RoundRobin(targets))
	defer proxy.Close()
	control := newHTTPClient(2)
	defer control.CloseIdleConnections()
	hc := newStreamClient(n)
	defer hc.CloseIdleConnections()
	var rounds atomic.Pointer[Round]
	watchers, wait, err := openStreams(ctx, proxy.URL+"/mcp", era, ToolsChanged, hc, n, &rounds)
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
