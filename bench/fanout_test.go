package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// maxStreams bounds the stream counts BenchmarkFanout runs: the CI run of
// every benchmark keeps to 1,000; the report asks for 10,000 too.
var maxStreams = flag.Int("bench.maxstreams", 1000, "largest number of open streams BenchmarkFanout runs")

// fanoutStreams are the numbers of open streams of BenchmarkFanout.
var fanoutStreams = []int{1000, 10000}

// fanoutRounds is how many notifications one op of BenchmarkFanout
// delivers to every stream.
const fanoutRounds = 5

// BenchmarkFanout measures notification fan-out over streamable HTTP: a
// server (each SDK's, in a child process) holds n open notification
// streams of the SDK-neutral raw client (2026-07-28: subscriptions/listen;
// legacy: a session's GET stream, subscribed to WatchedURI for resource
// updates), and delivers one notification to all of them, fanoutRounds
// times. It reports the delivery time of a stream from the moment the
// change was asked of the server (p50, p99 and max over every stream and
// round), the server's heap, stack and goroutines per open stream, and the
// server's CPU time per delivered notification. The ceiling target is
// the floor of net/http itself: bare SSE streams written one fixed event
// (ceiling_fanout.go); an SDK's figures minus the ceiling's are the SDK's
// own cost. The ns/op figure means nothing here.
func BenchmarkFanout(b *testing.B) {
	for _, kind := range []string{ToolsChanged, ResourceUpdated} {
		name := "tools"
		if kind == ResourceUpdated {
			name = "resource"
		}
		for _, era := range Eras {
			for _, n := range fanoutStreams {
				for _, target := range append(Names(), CeilingName, FloorName) {
					b.Run(fmt.Sprintf("%s/%s/n%d/%s", name, era, n, target), func(b *testing.B) {
						if n > *maxStreams {
							b.Skipf("%d streams: more than -bench.maxstreams=%d", n, *maxStreams)
						}
						benchFanout(b, target, era, kind, n)
					})
				}
			}
		}
	}
}

func benchFanout(b *testing.B, target string, era Era, kind string, n int) {
	ctx := context.Background()
	switch target {
	case CeilingName:
		target = fanoutCeilingName
	case FloorName:
		target = fanoutFloorName
	}
	child, err := StartChild(target, era)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := child.Stop(); err != nil {
			b.Error(err)
		}
	}()
	control := newHTTPClient(2)
	defer control.CloseIdleConnections()
	path := NotifyToolsPath
	if kind == ResourceUpdated {
		path = NotifyResourcePath
	}
	// A server that cannot send this notification at all is pending.
	if err := child.Control(ctx, control, path); errors.Is(err, ErrPending) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	var mem ChildMem
	var cpu time.Duration
	for range b.N {
		l, m, c, err := fanoutOnce(ctx, child, control, era, kind, path, n)
		if errors.Is(err, ErrPending) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, l...)
		mem.Heap += m.Heap
		mem.Stack += m.Stack
		mem.Goroutines += m.Goroutines
		cpu += c
	}
	slices.Sort(lat)
	per := func(v float64) float64 { return max(v/float64(b.N*n), 0) }
	b.ReportMetric(float64(percentile(lat, 50)), "p50-ns")
	b.ReportMetric(float64(percentile(lat, 99)), "p99-ns")
	b.ReportMetric(float64(lat[len(lat)-1]), "max-ns")
	b.ReportMetric(per(float64(mem.Heap)), "server-B/stream")
	b.ReportMetric(per(float64(mem.Stack)), "server-stackB/stream")
	b.ReportMetric(per(float64(mem.Goroutines)), "server-goroutines/stream")
	b.ReportMetric(float64(cpu)/float64(b.N*n*fanoutRounds), "server-cpu-ns/notification")
}

// percentile returns the p-th percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

// fanoutOnce opens n streams to child, measures what they cost the server,
// delivers fanoutRounds notifications to all of them, and closes them. It
// returns every stream's delivery time of every round, the server's cost
// of the open streams (in total) and its CPU time for the deliveries.
func fanoutOnce(ctx context.Context, child *Child, control *http.Client, era Era, kind, path string, n int) ([]time.Duration, ChildMem, time.Duration, error) {
	var zero ChildMem
	before, err := child.Mem(ctx, control)
	if err != nil {
		return nil, zero, 0, err
	}
	hc := newStreamClient(n)
	defer hc.CloseIdleConnections()
	var rounds atomic.Pointer[Round]
	watchers, wait, err := openStreams(ctx, child.URL, era, kind, hc, n, &rounds)
	defer func() {
		for _, w := range watchers {
			w.Close()
		}
		wait()
	}()
	if err != nil {
		return nil, zero, 0, err
	}
	hc.CloseIdleConnections() // the setup's keep-alive connections
	after, err := child.Mem(ctx, control)
	if err != nil {
		return nil, zero, 0, err
	}
	cpuBefore, err := child.CPU(ctx, control)
	if err != nil {
		return nil, zero, 0, err
	}
	var lat []time.Duration
	for r := range fanoutRounds {
		round := NewRound(n)
		rounds.Store(round)
		if err := child.Control(ctx, control, path); err != nil {
			return nil, zero, 0, err
		}
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		got, missing := round.Wait(wctx)
		cancel()
		if missing > 0 {
			return nil, zero, 0, fmt.Errorf("round %d: %d of %d streams got no %s within 30s", r, missing, n, kind)
		}
		lat = append(lat, got...)
	}
	cpuAfter, err := child.CPU(ctx, control)
	if err != nil {
		return nil, zero, 0, err
	}
	mem := ChildMem{
		Heap:       after.Heap - min(before.Heap, after.Heap),
		Stack:      after.Stack - min(before.Stack, after.Stack),
		Goroutines: max(after.Goroutines-before.Goroutines, 0),
	}
	return lat, mem, cpuAfter - cpuBefore, nil
}

// openStreams opens n watched streams, 64 at a time, and returns them with
// a function that waits for their readers to end once they are closed.
func openStreams(ctx context.Context, url string, era Era, kind string, hc *http.Client, n int, rounds *atomic.Pointer[Round]) ([]*StreamWatcher, func(), error) {
	watchers := make([]*StreamWatcher, n)
	var readers sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	next := atomic.Int64{}
	var openers sync.WaitGroup
	for range 64 {
		openers.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				w, err := OpenStream(ctx, url, era, kind, hc, i)
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("stream %d: %w", i, err) })
					return
				}
				ready := make(chan struct{})
				readers.Go(func() { w.Watch(kind, rounds, func() { close(ready) }) })
				watchers[i] = w
				select {
				case <-ready:
				case <-time.After(10 * time.Second):
					errOnce.Do(func() { firstErr = fmt.Errorf("stream %d: not acknowledged within 10s", i) })
					return
				}
			}
		})
	}
	openers.Wait()
	opened := slices.DeleteFunc(watchers, func(w *StreamWatcher) bool { return w == nil })
	return opened, readers.Wait, firstErr
}

// newStreamClient returns an HTTP client for n long-lived streams: one
// connection each, no limit per host.
func newStreamClient(n int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 128
	t.MaxIdleConnsPerHost = 128
	t.MaxConnsPerHost = 0
	return &http.Client{Transport: t}
}
