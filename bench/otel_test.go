package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gomcp/sdk/mcp"
	mcpotel "github.com/gomcp/sdk/otel"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// otelClients is the number of concurrent sessions of the OpenTelemetry
// overhead benchmark (the goal's).
const otelClients = 64

// BenchmarkOTelHTTPLoad measures what OpenTelemetry instrumentation costs a
// streamable HTTP tools/call at 64 concurrent sessions: "ours" is our
// server and client, both instrumented with the OpenTelemetry SDK (every
// span sampled and handed to a batching exporter that discards it,
// metrics aggregated by the SDK meter provider), "uninstrumented" the same
// server and client without, and "sdkdirect" the same spans and
// measurements made by calling the SDK directly from middleware written for
// this benchmark (sdkDirect): the floor of what the SDK costs. "sampled10"
// is ours with the sampler a busy service would choose instead of sampling
// every trace: a new trace is sampled one time in ten, and a span follows
// its parent's decision (sdktrace.ParentBased over TraceIDRatioBased).
// Reported like BenchmarkHTTPLoad, plus the CPU time of the process per
// call (cpu-ns/call).
func BenchmarkOTelHTTPLoad(b *testing.B) {
	for _, era := range Eras {
		for _, target := range []string{"ours", "uninstrumented", "sdkdirect", "sampled10"} {
			b.Run(fmt.Sprintf("%s/c%d/%s", era, otelClients, target), func(b *testing.B) {
				benchOTelLoad(b, era, target)
			})
		}
	}
}

func benchOTelLoad(b *testing.B, era Era, target string) {
	ctx := context.Background()
	server, client, ts := otelPair(b, era)
	if target != "uninstrumented" {
		topts := []sdktrace.TracerProviderOption{sdktrace.WithBatcher(tracetest.NewNoopExporter())}
		if target == "sampled10" {
			topts = append(topts, sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.1))))
		}
		tp := sdktrace.NewTracerProvider(topts...)
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		defer func() {
			_ = tp.Shutdown(ctx)
			_ = mp.Shutdown(ctx)
		}()
		instrument(target, era, server, client, ts.Listener.Addr(), tp, mp)
	}
	server.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	hc := newHTTPClient(otelClients)
	defer hc.CloseIdleConnections()
	sessions := make([]Session, otelClients)
	for i := range sessions {
		t := mcp.NewStreamableClientTransport(ts.URL, &mcp.StreamableClientTransportOptions{HTTPClient: hc})
		cs, err := client.Connect(ctx, t)
		if err != nil {
			b.Fatal(err)
		}
		sessions[i] = &oursSession{cs: cs}
		defer sessions[i].Close()
	}
	cpu0, err := processCPU()
	if err != nil {
		b.Fatal(err)
	}
	runLoad(b, otelClients, func(w int) error { return sessions[w].Echo(ctx, EchoText) })
	if cpu1, err := processCPU(); err == nil {
		// The whole process's CPU time, client and server and exporter,
		// per call: what the instrumentation costs, less noisy than the
		// throughput on a busy machine. (It includes the warm-up calls.)
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/call")
	}
}

// otelPair returns the server, client and HTTP server of an
// OpenTelemetry benchmark or check in era, before any instrumentation or
// tool; the HTTP server and handler close when tb ends.
func otelPair(tb testing.TB, era Era) (*mcp.Server, *mcp.Client, *httptest.Server) {
	server := mcp.NewServer("bench", "v0.0.1", nil)
	client := mcp.NewClient("bench-client", "v0.0.1", &mcp.ClientOptions{ProtocolVersion: era.Version()})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	return server, client, ts
}

// instrument installs a BenchmarkOTelHTTPLoad target's instrumentation on
// server and client: ours ("ours", "sampled10") or the same spans and
// measurements made by calling the OpenTelemetry SDK directly ("sdkdirect").
func instrument(target string, era Era, server *mcp.Server, client *mcp.Client, addr net.Addr, tp trace.TracerProvider, mp metric.MeterProvider) {
	if target != "sdkdirect" {
		opts := &mcpotel.Options{TracerProvider: tp, MeterProvider: mp}
		mcpotel.InstrumentServer(server, opts)
		mcpotel.InstrumentClient(client, opts)
		return
	}
	tcp := addr.(*net.TCPAddr)
	d := newSDKDirect(tp, mp, era, tcp.IP.String(), tcp.Port)
	server.AddMiddleware(d.receiving)
	client.AddSendingMiddleware(d.sending)
}
