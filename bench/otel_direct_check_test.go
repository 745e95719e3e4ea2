package bench

import (
	"context"
	"slices"
	"testing"

	"github.com/gomcp/sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// The "sdkdirect" target of BenchmarkOTelHTTPLoad makes what the otel
// package makes for a tools/call over streamable HTTP: two spans with the
// same names, kinds and attribute keys, the server's a child of the
// client's, so that comparing the two measures the package's own cost.
func TestSDKDirectMatchesInstrumentation(t *testing.T) {
	for _, era := range Eras {
		t.Run(era.String(), func(t *testing.T) {
			ours, direct := echoSpans(t, era, "ours"), echoSpans(t, era, "sdkdirect")
			if len(ours) != 2 || len(direct) != 2 {
				t.Fatalf("%d spans with the otel package, %d with sdkdirect, want 2 each", len(ours), len(direct))
			}
			for i := range ours {
				o, d := ours[i], direct[i]
				if o.Name() != d.Name() || o.SpanKind() != d.SpanKind() {
					t.Errorf("span %d: %q %v, sdkdirect's %q %v", i, o.Name(), o.SpanKind(), d.Name(), d.SpanKind())
				}
				if ok, dk := attrKeys(o), attrKeys(d); !slices.Equal(ok, dk) {
					t.Errorf("span %q: attributes %v, sdkdirect's %v", o.Name(), ok, dk)
				}
			}
			server, client := direct[0], direct[1]
			if server.Parent().SpanID() != client.SpanContext().SpanID() || server.Parent().TraceID() != client.SpanContext().TraceID() {
				t.Errorf("sdkdirect: server span's parent %v, want the client span %v", server.Parent(), client.SpanContext())
			}
		})
	}
}

// echoSpans makes one echo tools/call over streamable HTTP instrumented as
// BenchmarkOTelHTTPLoad's target is, and returns the spans of that call,
// server's first.
func echoSpans(t *testing.T, era Era, target string) []sdktrace.ReadOnlySpan {
	ctx := context.Background()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	server, client, ts := otelPair(t, era)
	instrument(target, era, server, client, ts.Listener.Addr(), tp, mp)
	server.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	cs, err := client.Connect(ctx, mcp.NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := (&oursSession{cs: cs}).Echo(ctx, EchoText); err != nil {
		t.Fatal(err)
	}
	var spans []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == mcp.MethodCallTool+" "+EchoTool {
			spans = append(spans, s)
		}
	}
	return spans
}

func attrKeys(s sdktrace.ReadOnlySpan) []string {
	var keys []string
	for _, kv := range s.Attributes() {
		keys = append(keys, string(kv.Key))
	}
	slices.Sort(keys)
	return keys
}
