package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadClients are the numbers of concurrent client sessions of the HTTP
// load benchmarks.
var loadClients = []int{1, 8, 64}

// newHTTPClient returns a client with its own connection pool, keeping up
// to conns idle connections to the host so that a load run reuses them
// instead of opening one per call.
func newHTTPClient(conns int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 2*conns + 8
	t.MaxIdleConnsPerHost = 2*conns + 8
	return &http.Client{Transport: t}
}

// BenchmarkHTTPLoad makes b.N tools/call of the echo tool over streamable
// HTTP on 127.0.0.1, from 1, 8 and 64 concurrent sessions, and reports
// calls/s and the p50 and p99 latency of a call.
//
// "sdk" drives each SDK's handler with the same SDK's client. "raw" drives
// each SDK's handler, and the bare net/http ceiling, with the SDK-neutral
// load generator: in the legacy era each session is made once with
// initialize, in the modern era every call is a stateless POST with the
// required _meta and headers. B/op counts client and server together.
func BenchmarkHTTPLoad(b *testing.B) {
	for _, era := range Eras {
		for _, c := range loadClients {
			for _, sdk := range SDKs() {
				b.Run(fmt.Sprintf("sdk/%s/c%d/%s", era, c, sdk.Name()), func(b *testing.B) {
					benchSDKLoad(b, sdk, era, c)
				})
			}
		}
	}
	for _, era := range Eras {
		for _, c := range loadClients {
			for _, tg := range targets(era) {
				b.Run(fmt.Sprintf("raw/%s/c%d/%s", era, c, tg.name), func(b *testing.B) {
					h, done, err := tg.handler()
					if errors.Is(err, ErrPending) {
						b.Skip(err)
					}
					if err != nil {
						b.Fatal(err)
					}
					defer done()
					benchRawLoad(b, h, era, c)
				})
			}
		}
	}
}

func benchSDKLoad(b *testing.B, sdk SDK, era Era, clients int) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	h, err := srv.Handler(era)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	hc := newHTTPClient(clients)
	defer hc.CloseIdleConnections()
	sessions := make([]Session, clients)
	for i := range sessions {
		if sessions[i], err = sdk.ConnectHTTP(ctx, ts.URL, era, hc); err != nil {
			b.Fatal(err)
		}
		defer sessions[i].Close()
	}
	runLoad(b, clients, func(w int) error { return sessions[w].Echo(ctx, EchoText) })
}

func benchRawLoad(b *testing.B, h http.Handler, era Era, clients int) {
	ctx := context.Background()
	ts := httptest.NewServer(h)
	defer ts.Close()
	hc := newHTTPClient(clients)
	defer hc.CloseIdleConnections()
	raws := make([]*RawClient, clients)
	for i := range raws {
		raws[i] = &RawClient{URL: ts.URL, HTTP: hc, Era: era}
		if err := raws[i].Start(ctx); err != nil {
			b.Fatal(err)
		}
		defer raws[i].Close()
	}
	runLoad(b, clients, func(w int) error { return raws[w].Call(ctx) })
}

// runLoad makes two untimed warm-up calls per worker, then b.N calls from
// the given number of workers, and reports calls/s, p50 and p99. call(w)
// makes one call as worker w.
func runLoad(b *testing.B, workers int, call func(w int) error) {
	// Warm up outside the timer: every worker's keep-alive connection is
	// open, so the measured calls are steady state rather than TCP setup.
	if err := driveCalls(2*workers, workers, call); err != nil {
		b.Fatal(err)
	}
	lat := NewLatencies(b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(lat)) {
					return
				}
				t0 := time.Now()
				if err := call(w); err != nil {
					errs <- err
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(lat.Percentile(50)), "p50-ns")
	b.ReportMetric(float64(lat.Percentile(99)), "p99-ns")
}
