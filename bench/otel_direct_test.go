package bench

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// sdkDirect is the floor BenchmarkOTelHTTPLoad compares the instrumentation
// with ("sdkdirect"): middleware written for this benchmark alone that
// makes, for each tools/call, the spans and measurements the otel package
// makes (same names, kinds and attributes, trace context carried in _meta
// by the same W3C propagator, duration histograms with attribute sets made
// once) by calling the OpenTelemetry SDK directly, and nothing else: no
// other method, no error classification, no caches, no generality. What
// it costs over "uninstrumented" is what the SDK itself costs.
type sdkDirect struct {
	tracer                 trace.Tracer
	client, server         metric.Float64Histogram
	clientSet              metric.MeasurementOption
	serverSet              metric.MeasurementOption
	clientAttrs            []attribute.KeyValue // shared by every CLIENT span
	serverAttrs            []attribute.KeyValue // shared by every SERVER span
	clientKind, serverKind trace.SpanStartOption
	prop                   propagation.TextMapPropagator
}

func newSDKDirect(tp trace.TracerProvider, mp metric.MeterProvider, era Era, serverHost string, serverPort int) *sdkDirect {
	meter := mp.Meter("bench/sdkdirect")
	buckets := metric.WithExplicitBucketBoundaries(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300)
	d := &sdkDirect{
		tracer:     tp.Tracer("bench/sdkdirect"),
		clientKind: trace.WithSpanKind(trace.SpanKindClient),
		serverKind: trace.WithSpanKind(trace.SpanKindServer),
		prop:       propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
	d.client, _ = meter.Float64Histogram("mcp.client.operation.duration", metric.WithUnit("s"), buckets)
	d.server, _ = meter.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"), buckets)
	shared := []attribute.KeyValue{
		attribute.String("mcp.method.name", mcp.MethodCallTool), attribute.String("gen_ai.tool.name", EchoTool),
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("mcp.protocol.version", era.Version()),
		attribute.String("network.transport", "tcp"), attribute.String("network.protocol.name", "http"),
	}
	// The client does not see the HTTP version; the server does.
	d.clientAttrs = append(append([]attribute.KeyValue(nil), shared...),
		attribute.String("server.address", serverHost), attribute.Int("server.port", serverPort))
	d.serverAttrs = append(shared, attribute.String("network.protocol.version", "1.1"))
	d.clientSet = metric.WithAttributeSet(attribute.NewSet(d.clientAttrs...))
	d.serverSet = metric.WithAttributeSet(attribute.NewSet(d.serverAttrs...))
	return d
}

// sending is the client's middleware: a CLIENT span, the trace context
// injected into _meta, a measurement.
func (d *sdkDirect) sending(next mcp.MethodHandler[mcp.ClientSession]) mcp.MethodHandler[mcp.ClientSession] {
	return func(ctx context.Context, cs *mcp.ClientSession, method string, params any) (any, error) {
		p, ok := params.(*mcp.CallToolParams)
		if !ok {
			return next(ctx, cs, method, params)
		}
		start := time.Now()
		info, _ := mcp.RequestInfoFromContext(ctx)
		attrs := make([]attribute.KeyValue, 0, len(d.clientAttrs)+2)
		attrs = append(attrs, d.clientAttrs...)
		attrs = appendSession(attrs, cs.ID())
		attrs = append(attrs, attribute.String("jsonrpc.request.id", formatRequestID(info.ID)))
		ctx, span := d.tracer.Start(ctx, mcp.MethodCallTool+" "+p.Name, d.clientKind, trace.WithAttributes(attrs...))
		data := make(map[string]any, 3)
		for k, v := range p.Meta.Data {
			data[k] = v
		}
		d.prop.Inject(ctx, metaCarrier(data))
		p.Meta.Data = data
		res, err := next(ctx, cs, method, params)
		span.End()
		d.client.Record(ctx, time.Since(start).Seconds(), d.clientSet)
		return res, err
	}
}

// receiving is the server's middleware: the trace context extracted from
// _meta, a SERVER span, a measurement.
func (d *sdkDirect) receiving(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
	return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
		p, ok := params.(*mcp.CallToolParams)
		if !ok {
			return next(ctx, ss, method, params)
		}
		start := time.Now()
		info, _ := mcp.RequestInfoFromContext(ctx)
		ctx = d.prop.Extract(ctx, metaCarrier(p.Meta.Data))
		attrs := make([]attribute.KeyValue, 0, len(d.serverAttrs)+4)
		attrs = append(attrs, d.serverAttrs...)
		attrs = appendSession(attrs, ss.ID())
		if host, port, err := net.SplitHostPort(info.Transport.RemoteAddr); err == nil {
			n, _ := strconv.Atoi(port)
			attrs = append(attrs, attribute.String("client.address", host), attribute.Int("client.port", n))
		}
		attrs = append(attrs, attribute.String("jsonrpc.request.id", formatRequestID(info.ID)))
		ctx, span := d.tracer.Start(ctx, mcp.MethodCallTool+" "+p.Name, d.serverKind, trace.WithAttributes(attrs...))
		res, err := next(ctx, ss, method, params)
		span.End()
		d.server.Record(ctx, time.Since(start).Seconds(), d.serverSet)
		return res, err
	}
}

// appendSession appends mcp.session.id for a session that has one (legacy
// streamable HTTP).
func appendSession(attrs []attribute.KeyValue, id string) []attribute.KeyValue {
	if id != "" {
		attrs = append(attrs, attribute.String("mcp.session.id", id))
	}
	return attrs
}

func formatRequestID(id any) string {
	switch v := id.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// metaCarrier reads and writes the string members of a _meta's Data.
type metaCarrier map[string]any

func (c metaCarrier) Get(key string) string {
	s, _ := c[key].(string)
	return s
}

func (c metaCarrier) Set(key, value string) { c[key] = value }

func (c metaCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}
