package otel

import (
	"context"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"
)

// The _meta keys MCP reserves for trace context (W3C Trace Context and W3C
// Baggage).
const (
	metaTraceparent = "traceparent"
	metaTracestate  = "tracestate"
	metaBaggage     = "baggage"
)

// extract returns ctx with the trace context and baggage carried in the
// _meta of params, if any. A malformed traceparent is ignored (the span
// becomes a root, or keeps the parent ctx already has); an oversized
// baggage is dropped. link is the span ctx carried before, when the _meta
// trace context replaced it as parent (the span of an HTTP request that
// carried the message, say); the new span links to it.
func (in *instruments) extract(ctx context.Context, params any) (_ context.Context, link trace.SpanContext) {
	meta := metaOf(params)
	if meta == nil || len(meta.Data) == 0 {
		return ctx, link
	}
	if in.w3cDefaults {
		_, tp := meta.Data[metaTraceparent]
		_, bg := meta.Data[metaBaggage]
		if !tp && !bg {
			return ctx, link
		}
	}
	before := trace.SpanContextFromContext(ctx)
	out := in.propagator.Extract(ctx, carrier(meta))
	if after := trace.SpanContextFromContext(out); before.IsValid() && after.IsValid() && !after.Equal(before) {
		link = before
	}
	return out, link
}

// inject writes the trace context of ctx into the _meta of params, merged
// with what is there. With the default propagator nothing is written, and
// nothing allocated, when ctx carries neither a span context nor baggage.
func (in *instruments) inject(ctx context.Context, params any) {
	if in.w3cDefaults && !trace.SpanContextFromContext(ctx).IsValid() && baggage.FromContext(ctx).Len() == 0 {
		return
	}
	meta := metaOf(params)
	if meta == nil {
		return
	}
	ownData(meta)
	in.propagator.Inject(ctx, carrier(meta))
}
