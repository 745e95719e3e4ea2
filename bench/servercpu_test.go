package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// cpuClients are the numbers of concurrent raw sessions of
// BenchmarkServerCPU.
var cpuClients = []int{8, 64}

// BenchmarkServerCPU measures the server's own CPU time per tools/call over
// streamable HTTP: each SDK's handler, and the bare net/http ceiling, runs
// in a child process, the raw load generator in this one drives it from 8
// and 64 concurrent sessions, and the child reports the CPU time (user and
// system, garbage collection included) its process used. One op is one
// call; b.N calls are measured after a warm-up of b.N/10 calls (at least two
// per session), which also makes the legacy sessions and opens the
// keep-alive connections. The ns/op figure is the load generator's
// wall-clock time per call and means little here.
func BenchmarkServerCPU(b *testing.B) {
	for _, era := range Eras {
		for _, c := range cpuClients {
			for _, target := range append(Names(), CeilingName) {
				b.Run(fmt.Sprintf("%s/c%d/%s", era, c, target), func(b *testing.B) {
					benchServerCPU(b, target, era, c)
				})
			}
		}
	}
}

func benchServerCPU(b *testing.B, target string, era Era, clients int) {
	ctx := context.Background()
	// The handler is made here too, only to skip a target that has none
	// before starting a child that would fail.
	_, done, err := TargetHandler(target, era)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	done()
	child, err := StartChild(target, era)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := child.Stop(); err != nil {
			b.Error(err)
		}
	}()
	hc := newHTTPClient(clients)
	defer hc.CloseIdleConnections()
	raws := make([]*RawClient, clients)
	for i := range raws {
		raws[i] = &RawClient{URL: child.URL, HTTP: hc, Era: era}
		if err := raws[i].Start(ctx); err != nil {
			b.Fatal(err)
		}
		defer raws[i].Close()
	}
	call := func(w int) error { return raws[w].Call(ctx) }
	if err := driveCalls(max(b.N/10, 2*clients), clients, call); err != nil {
		b.Fatal(err)
	}
	before, err := child.CPU(ctx, hc)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if err := driveCalls(b.N, clients, call); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	after, err := child.CPU(ctx, hc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(after-before)/float64(b.N), "server-cpu-ns/call")
}

// driveCalls makes n calls from the given number of workers; call(w) makes
// one call as worker w. The first error stops every worker.
func driveCalls(n, workers int, call func(w int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var stop atomic.Bool
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for !stop.Load() && next.Add(1) <= int64(n) {
				if err := call(w); err != nil {
					stop.Store(true)
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}
