package otel

import (
	"reflect"

	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Options configure the instrumentation of a server or a client. A nil
// *Options, like the zero Options, means the defaults.
type Options struct {
	// TracerProvider makes the spans. Nil means the global provider
	// (otel.GetTracerProvider), looked up when each span starts, so a
	// provider installed after the instrumentation is used.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the duration histograms. Nil means the global
	// provider.
	MeterProvider metric.MeterProvider
	// Propagator writes the trace context into the _meta of every
	// outgoing request and notification and reads it from incoming ones.
	// Nil means W3C Trace Context and W3C Baggage (traceparent,
	// tracestate and baggage), the keys MCP reserves for it; the global
	// propagator is not used, since its default propagates nothing.
	Propagator propagation.TextMapPropagator
	// RecordToolCalls records the arguments and the result of every
	// tools/call on its spans, client's and server's, as JSON text in the
	// attributes gen_ai.tool.call.arguments and gen_ai.tool.call.result.
	// The semantic conventions make them opt-in, and they are off by
	// default: arguments and results may carry personal or secret data,
	// and encoding them costs time. Only spans that record get them.
	RecordToolCalls bool
	// MaxToolCallSize is the most bytes recorded of each argument or
	// result text; longer ones are cut at a character boundary (and are
	// no longer valid JSON). Zero means DefaultMaxToolCallSize.
	MaxToolCallSize int
	// NestToolSpans gives a tools/call sent while an execute_tool span is
	// current (the span an agent framework opens around a tool's
	// execution, named "execute_tool {tool}") a CLIENT span of its own, a
	// child of that span. By default, as the semantic conventions advise,
	// the call starts no span: its attributes are added to the
	// execute_tool span, whose trace context the server receives.
	// Recognizing the outer span needs its name, which spans of the
	// OpenTelemetry SDK tell.
	NestToolSpans bool
}

// defaultPropagator carries traceparent, tracestate and baggage.
var defaultPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// globalDelegateType is the type of the provider otel.GetTracerProvider
// returns before a program installs one: it makes only non-recording
// spans, so the instrumentation starts none.
var globalDelegateType = func() reflect.Type {
	t := reflect.TypeOf(otelapi.GetTracerProvider())
	if t != nil && t.String() == "*global.tracerProvider" {
		return t
	}
	return nil
}()

// providers are the resolved options.
type providers struct {
	tracer      trace.Tracer
	useGlobal   bool // tracer comes from the global provider
	noopTracer  bool // the provider is the OpenTelemetry no-op one
	meter       metric.Meter
	propagator  propagation.TextMapPropagator
	w3cDefaults bool // propagator is defaultPropagator
	toolCalls   int  // the byte limit of recorded tool call content; 0: not recorded
	nestTools   bool // Options.NestToolSpans
}

func resolve(opts *Options) providers {
	var o Options
	if opts != nil {
		o = *opts
	}
	var p providers
	tp := o.TracerProvider
	if tp == nil {
		tp = otelapi.GetTracerProvider()
		p.useGlobal = reflect.TypeOf(tp) == globalDelegateType && globalDelegateType != nil
	}
	if _, ok := tp.(tracenoop.TracerProvider); ok {
		p.noopTracer = true
	}
	p.tracer = tp.Tracer(instrumentationName, trace.WithInstrumentationVersion(version))
	mp := o.MeterProvider
	if mp == nil {
		mp = otelapi.GetMeterProvider()
	}
	p.meter = mp.Meter(instrumentationName, metric.WithInstrumentationVersion(version))
	p.toolCalls = toolCallLimit(&o)
	p.nestTools = o.NestToolSpans
	p.propagator = o.Propagator
	if p.propagator == nil {
		p.propagator, p.w3cDefaults = defaultPropagator, true
	}
	return p
}

// tracing reports whether a span started now could record. The
// instrumentation starts no span when it cannot, which keeps the cost of
// an uninstrumented program's requests at zero allocations.
func (p *providers) tracing() bool {
	if p.noopTracer {
		return false
	}
	if p.useGlobal {
		return reflect.TypeOf(otelapi.GetTracerProvider()) != globalDelegateType
	}
	return true
}

// version is the instrumentation version reported with the tracer and
// meter.
const version = "0.1.0"
