package bench

import (
	"context"
	"errors"
	"flag"
	"io"
	"net/http/httptest"
	"testing"
)

// sessions is how many idle sessions BenchmarkIdleSessions opens at once.
var sessions = flag.Int("bench.sessions", 1000, "idle sessions opened per BenchmarkIdleSessions op")

// footprints accumulates the Footprints of a benchmark's ops.
type footprints struct {
	server, client Footprint
	n              float64
}

func (f *footprints) add(server, client Footprint) {
	f.server = Footprint{f.server.HeapBytes + server.HeapBytes, f.server.StackBytes + server.StackBytes, f.server.Goroutines + server.Goroutines}
	f.client = Footprint{f.client.HeapBytes + client.HeapBytes, f.client.StackBytes + client.StackBytes, f.client.Goroutines + client.Goroutines}
	f.n++
}

// report reports the averages as per-session metrics. A figure below zero
// is noise (a stack that shrank, memory freed while measuring) around a
// cost too small to measure, and is reported as zero.
func (f *footprints) report(b *testing.B) {
	per := func(v float64) float64 { return max(v/f.n, 0) }
	b.ReportMetric(per(f.server.HeapBytes), "server-B/session")
	b.ReportMetric(per(f.server.StackBytes), "server-stackB/session")
	b.ReportMetric(per(f.server.Goroutines), "server-goroutines/session")
	b.ReportMetric(per(f.client.HeapBytes), "client-B/session")
	b.ReportMetric(per(f.client.StackBytes), "client-stackB/session")
	b.ReportMetric(per(f.client.Goroutines), "client-goroutines/session")
}

// BenchmarkIdleSessions opens -bench.sessions idle sessions (1,000 by
// default) and reports heap, stack and goroutines per session, server and
// client apart. The ns/op figure means nothing here.
//
// In memory (legacy sessions), the server's share is measured with sessions
// whose client half is a minimal raw peer sending initialize and
// notifications/initialized over the SDK's in-memory transport; the
// client's share is a full client-server pair minus that.
//
// Over HTTP, in each era, the server's share is measured with the raw load
// generator's sessions against the SDK's handler in this process (legacy:
// initialize, then notifications/initialized; 2026-07-28: one
// server/discover, after which the server should hold nothing); the
// client's share with the SDK's own client against the SDK's server running
// in a child process. Idle keep-alive connections are closed before
// measuring: an idle session needs none.
func BenchmarkIdleSessions(b *testing.B) {
	for _, sdk := range SDKs() {
		b.Run("memory/"+sdk.Name(), func(b *testing.B) { benchIdleMemory(b, sdk) })
	}
	for _, era := range Eras {
		for _, sdk := range SDKs() {
			b.Run("http/"+era.String()+"/"+sdk.Name(), func(b *testing.B) { benchIdleHTTP(b, sdk, era) })
		}
	}
}

func benchIdleMemory(b *testing.B, sdk SDK) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var f footprints
	for b.Loop() {
		server, open, err := MeasureSessions(*sessions, func() (io.Closer, error) {
			return srv.ConnectRawInMemory(ctx)
		}, nil)
		if err != nil {
			b.Fatal(err)
		}
		open.Close()
		pair, open, err := MeasureSessions(*sessions, func() (io.Closer, error) {
			return srv.ConnectInMemory(ctx, Legacy)
		}, nil)
		if err != nil {
			b.Fatal(err)
		}
		open.Close()
		f.add(server, pair.Sub(server))
	}
	f.report(b)
}

func benchIdleHTTP(b *testing.B, sdk SDK, era Era) {
	ctx := context.Background()
	h, done, err := TargetHandler(sdk.Name(), era)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer done()
	ts := httptest.NewServer(h)
	defer ts.Close()
	child, err := StartChild(sdk.Name(), era)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := child.Stop(); err != nil {
			b.Error(err)
		}
	}()
	var f footprints
	for b.Loop() {
		hc := newHTTPClient(4)
		server, open, err := MeasureSessions(*sessions, func() (io.Closer, error) {
			c := &RawClient{URL: ts.URL, HTTP: hc, Era: era}
			if err := c.Start(ctx); err != nil || era == Legacy {
				return c, err
			}
			return c, c.Discover(ctx)
		}, hc.CloseIdleConnections)
		if err != nil {
			b.Fatal(err)
		}
		open.Close()
		hc.CloseIdleConnections()

		hc = newHTTPClient(4)
		client, open, err := MeasureSessions(*sessions, func() (io.Closer, error) {
			return sdk.ConnectHTTP(ctx, child.URL, era, hc)
		}, hc.CloseIdleConnections)
		if err != nil {
			b.Fatal(err)
		}
		open.Close()
		hc.CloseIdleConnections()
		f.add(server, client)
	}
	f.report(b)
}
