package otel

import (
	"context"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// echoTool answers every call with the same small text, so that the
// benchmarks measure the SDK and the instrumentation, not the handler.
func echoTool() *mcp.ServerTool {
	return &mcp.ServerTool{
		Tool: &mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("hello")}}, nil
		},
	}
}

// instrumentations are the setups the in-memory benchmark compares: none,
// the OpenTelemetry no-op providers, and the SDK with a batching exporter
// that discards what it is given.
var instrumentations = []struct {
	name string
	opts func(tb testing.TB) *Options // nil: not instrumented
}{
	{"bare", nil},
	{"noop", func(testing.TB) *Options {
		return &Options{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}
	}},
	{"global", func(testing.TB) *Options { return nil }},
	{"sdk", sdkOptions},
}

// sdkOptions are the OpenTelemetry SDK's providers: every span sampled and
// batched to an exporter that discards it, metrics aggregated for a reader
// that is never collected.
func sdkOptions(tb testing.TB) *Options {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter(), sdktrace.WithBatchTimeout(time.Second)))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	tb.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	return &Options{TracerProvider: tp, MeterProvider: mp}
}

// echoPair connects a client to a server with the echo tool in memory, both
// instrumented with opts unless instrument is false.
func echoPair(tb testing.TB, version string, opts *Options, instrument bool) *mcp.ClientSession {
	server := mcp.NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	client := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: version})
	if instrument {
		InstrumentServer(server, opts)
		InstrumentClient(client, opts)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// BenchmarkInMemoryCallTool measures one tools/call round trip over the
// in-memory transport, client and server together, without
// instrumentation ("bare"), with the no-op providers ("noop"), with the
// default global providers when none is installed ("global"), and with
// the OpenTelemetry SDK ("sdk"). The goal: noop and global add at most 2
// allocations and 1 µs to bare.
func BenchmarkInMemoryCallTool(b *testing.B) {
	for _, era := range []string{mcp.Version20260728, mcp.Version20251125} {
		for _, in := range instrumentations {
			b.Run(era+"/"+in.name, func(b *testing.B) {
				var opts *Options
				if in.opts != nil {
					opts = in.opts(b)
				}
				cs := echoPair(b, era, opts, in.opts != nil)
				ctx := context.Background()
				args := map[string]any{"text": "hello"}
				b.ReportAllocs()
				cpu := processCPU()
				for b.Loop() {
					if _, err := cs.CallTool(ctx, "echo", args, nil); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
		}
	}
}

// BenchmarkNoopMiddleware measures what the instrumentation itself adds to
// one tools/call with the no-op providers: the client's sending middleware
// and the server's receiving middleware around handlers that do nothing.
// (The in-memory pair above is too noisy to resolve a microsecond.)
func BenchmarkNoopMiddleware(b *testing.B) {
	for _, in := range instrumentations[1:3] {
		b.Run(in.name, func(b *testing.B) {
			opts := in.opts(b)
			server, client := newInstruments(opts, metricServerSession), newInstruments(opts, metricClientSession)
			res := &mcp.CallToolResult{}
			recv := receiving(server, serverPeer)(func(context.Context, *mcp.ServerSession, string, any) (any, error) { return res, nil })
			send := sending(client, clientPeer)(func(ctx context.Context, cs *mcp.ClientSession, method string, params any) (any, error) {
				return recv(ctx, nil, method, params)
			})
			params := &mcp.CallToolParams{Name: "echo"}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := send(ctx, nil, mcp.MethodCallTool, params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSDKMiddleware measures the instrumentation with the OpenTelemetry
// SDK (every span sampled and batched, metrics aggregated) around handlers
// that do nothing: one tools/call's CLIENT and SERVER spans, trace context
// injected and extracted, and both duration measurements. It isolates the
// part of BenchmarkOTelHTTPLoad's overhead that this package and the SDK
// spend, from the transport's. BenchmarkSDKDirect makes the same spans and
// measurements without this package.
func BenchmarkSDKMiddleware(b *testing.B) {
	benchSDKMiddleware(b, sdkOptions(b))
}

// BenchmarkSDKMiddlewareNotSampled is BenchmarkSDKMiddleware with a sampler
// that records no span: what remains is the sampler's decision, the trace
// context (which still propagates) and the measurements.
func BenchmarkSDKMiddlewareNotSampled(b *testing.B) {
	opts := sdkOptions(b)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	opts.TracerProvider = tp
	benchSDKMiddleware(b, opts)
}

func benchSDKMiddleware(b *testing.B, opts *Options) {
	server, client := newInstruments(opts, metricServerSession), newInstruments(opts, metricClientSession)
	res := &mcp.CallToolResult{}
	p := peer{protocolVersion: mcp.Version20260728, transport: "tcp", protocolName: "http", protocolVer: "1.1", address: "127.0.0.1", port: 8080}
	serverPeer := func(*mcp.ServerSession, mcp.TransportInfo) peer { return p }
	clientPeer := func(*mcp.ClientSession, mcp.TransportInfo) peer { return p }
	recv := receiving(server, serverPeer)(func(context.Context, *mcp.ServerSession, string, any) (any, error) { return res, nil })
	send := sending(client, clientPeer)(func(ctx context.Context, cs *mcp.ClientSession, method string, params any) (any, error) {
		// What goes on the wire: the server decodes its own params.
		p := params.(*mcp.CallToolParams)
		return recv(context.Background(), nil, method, &mcp.CallToolParams{Name: p.Name, Meta: p.Meta})
	})
	ctx := context.Background()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := send(ctx, nil, mcp.MethodCallTool, &mcp.CallToolParams{Name: "echo"}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time of the process since cpu per iteration
// (cpu-ns/op): exporter and garbage collector included, and less disturbed
// than ns/op by other programs on a busy machine.
func reportCPU(b *testing.B, cpu time.Duration) {
	if now := processCPU(); now > 0 {
		b.ReportMetric(float64(now-cpu)/float64(b.N), "cpu-ns/op")
	}
}
