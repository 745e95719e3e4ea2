package otel

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gomcp/sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// startRecorder is a sampler that samples everything and remembers the
// attributes each span had when it started, keyed by kind and name.
type startRecorder struct {
	mu    sync.Mutex
	attrs map[string]map[string]string
}

func (r *startRecorder) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.attrs == nil {
		r.attrs = make(map[string]map[string]string)
	}
	r.attrs[p.Kind.String()+" "+p.Name] = attrs(p.Attributes)
	return sdktrace.SamplingResult{Decision: sdktrace.RecordAndSample, Tracestate: trace.SpanContextFromContext(p.ParentContext).TraceState()}
}

func (r *startRecorder) Description() string { return "startRecorder" }

func (r *startRecorder) at(key string) map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attrs[key]
}

// TestRequestIDAtSpanStart checks that the jsonrpc.request.id of a tools/call
// is among the attributes its CLIENT and SERVER spans start with, where a
// sampler sees it, and that both sides report the same id.
func TestRequestIDAtSpanStart(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			sampler := &startRecorder{}
			tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			opts := &Options{TracerProvider: tp}
			server, client := greeter(), newClient(era.request)
			InstrumentServer(server, opts)
			InstrumentClient(client, opts)
			cs := connect(t, server, client)
			if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
				t.Fatal(err)
			}
			c, s := sampler.at("client tools/call greet"), sampler.at("server tools/call greet")
			if c["jsonrpc.request.id"] == "" || c["jsonrpc.request.id"] != s["jsonrpc.request.id"] {
				t.Errorf("jsonrpc.request.id at span start: client %q, server %q", c["jsonrpc.request.id"], s["jsonrpc.request.id"])
			}
			if c["mcp.method.name"] != mcp.MethodCallTool || c["gen_ai.tool.name"] != "greet" {
				t.Errorf("client span started with %v", c)
			}
			// Every request the client sent (initialize or server/discover
			// too) had its id at start; notifications have none.
			sampler.mu.Lock()
			defer sampler.mu.Unlock()
			for key, a := range sampler.attrs {
				name, client := strings.CutPrefix(key, "client ")
				if !client {
					continue
				}
				if _, has := a["jsonrpc.request.id"]; has == isNotification(a["mcp.method.name"]) {
					t.Errorf("CLIENT span %q started with jsonrpc.request.id %q (%v)", name, a["jsonrpc.request.id"], has)
				}
			}
		})
	}
}
