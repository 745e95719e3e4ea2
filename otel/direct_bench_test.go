package otel

import (
	"context"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// BenchmarkSDKDirect is BenchmarkSDKMiddleware without this package: the
// same two spans with the same attributes, the trace context injected into
// a map and extracted from it, and the same two duration measurements with
// attribute sets made once, all by calling the OpenTelemetry SDK directly.
// It is the floor of what the SDK costs a tools/call: the difference with
// BenchmarkSDKMiddleware, measured in the same run, is this package's own
// cost.
func BenchmarkSDKDirect(b *testing.B) {
	benchSDKDirect(b, sdkOptions(b))
}

// BenchmarkSDKDirectNotSampled is BenchmarkSDKDirect with a sampler that
// records no span, the floor of BenchmarkSDKMiddlewareNotSampled.
func BenchmarkSDKDirectNotSampled(b *testing.B) {
	opts := sdkOptions(b)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	opts.TracerProvider = tp
	benchSDKDirect(b, opts)
}

func benchSDKDirect(b *testing.B, opts *Options) {
	tracer := opts.TracerProvider.Tracer(instrumentationName)
	meter := opts.MeterProvider.Meter(instrumentationName)
	buckets := metric.WithExplicitBucketBoundaries(durationBuckets...)
	clientHist, _ := meter.Float64Histogram(metricClientOperation, metric.WithUnit("s"), buckets)
	serverHist, _ := meter.Float64Histogram(metricServerOperation, metric.WithUnit("s"), buckets)
	shared := []attribute.KeyValue{
		keyMethodName.String(mcp.MethodCallTool), keyToolName.String("echo"), keyOperationName.String(operationExecuteTool),
		keyProtocolVersion.String(mcp.Version20260728), keyNetworkTransport.String("tcp"),
		keyProtocolName.String("http"), keyProtocolVersionNP.String("1.1"),
	}
	clientAttrs := append(append([]attribute.KeyValue(nil), shared...), keyServerAddress.String("127.0.0.1"), keyServerPort.Int(8080))
	serverAttrs := append(append([]attribute.KeyValue(nil), shared...), keyClientAddress.String("127.0.0.1"), keyClientPort.Int(8080))
	clientSet := metric.WithAttributeSet(attribute.NewSet(clientAttrs...))
	serverSet := metric.WithAttributeSet(attribute.NewSet(shared...))
	clientKind, serverKind := trace.WithSpanKind(trace.SpanKindClient), trace.WithSpanKind(trace.SpanKindServer)
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	name := mcp.MethodCallTool + " echo"
	ctx := context.Background()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		start := time.Now()
		cctx, cspan := tracer.Start(ctx, name, clientKind, trace.WithAttributes(clientAttrs...))
		carrier := propagation.MapCarrier{}
		prop.Inject(cctx, carrier)

		sstart := time.Now()
		sctx, sspan := tracer.Start(prop.Extract(context.Background(), carrier), name, serverKind, trace.WithAttributes(serverAttrs...))
		sspan.End()
		serverHist.Record(sctx, time.Since(sstart).Seconds(), serverSet)

		cspan.End()
		clientHist.Record(cctx, time.Since(start).Seconds(), clientSet)
	}
	reportCPU(b, cpu)
}
