package otel

import (
	"context"
	"errors"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// telemetry is what one test records: spans and metrics.
type telemetry struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	opts   *Options
}

func newTelemetry(t *testing.T) *telemetry {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	return &telemetry{spans: rec, reader: reader, opts: &Options{TracerProvider: tp, MeterProvider: mp}}
}

// ended returns the ended spans named name.
func (tm *telemetry) ended(name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range tm.spans.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// spanByID returns the ended span with the given id, or nil.
func (tm *telemetry) spanByID(id trace.SpanID) sdktrace.ReadOnlySpan {
	for _, s := range tm.spans.Ended() {
		if s.SpanContext().SpanID() == id {
			return s
		}
	}
	return nil
}

// histogram collects the metrics and returns the data points of the
// histogram named name.
func (tm *telemetry) histogram(t *testing.T, name string) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tm.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			if m.Unit != "s" {
				t.Errorf("%s: unit %q, want s", name, m.Unit)
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T, not a histogram", name, m.Data)
			}
			return h.DataPoints
		}
	}
	return nil
}

// attrs turns span or data point attributes into a map of their string
// forms.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// greeter is the server of the tests: a greet tool, a failing tool, a
// prompt and a resource.
func greeter() *mcp.Server {
	s := mcp.NewServer("greeter", "v1.0.0", nil)
	type args struct {
		Name string `json:"name"`
	}
	s.AddTools(
		mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, a args) ([]*mcp.Content, error) {
			return []*mcp.Content{mcp.NewTextContent("Hi " + a.Name)}, nil
		}),
		mcp.NewTool("fail", "always fails", func(ctx context.Context, ss *mcp.ServerSession, a struct{}) ([]*mcp.Content, error) {
			return nil, errors.New("it failed")
		}),
		mcp.NewTool("block", "waits until cancelled", func(ctx context.Context, ss *mcp.ServerSession, a struct{}) ([]*mcp.Content, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	)
	s.AddPrompts(mcp.NewPrompt("welcome", "a welcome", func(ctx context.Context, ss *mcp.ServerSession, a struct{}) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: mcp.NewTextContent("welcome")}}}, nil
	}))
	s.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "file:///readme", Name: "readme"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: p.URI, Text: "read me"}}}, nil
		},
	})
	return s
}

// connect joins client and server in memory and returns the client's
// session. version picks the era: "" lets the client choose (2026-07-28
// when the server serves it), a legacy version forces initialize.
func connect(t *testing.T, server *mcp.Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// newClient makes a client speaking version ("" for the default).
func newClient(version string) *mcp.Client {
	return mcp.NewClient("tester", "v0.0.1", &mcp.ClientOptions{ProtocolVersion: version})
}
