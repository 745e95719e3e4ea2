package otel

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

const (
	testTraceID    = "4bf92f3577b34da6a3ce929d0e0e4736"
	testSpanID     = "00f067aa0ba902b7"
	testParent     = "00-" + testTraceID + "-" + testSpanID + "-01"
	testBaggageVal = "user=ada,tenant=t1"
)

// TestExtract checks what the server side takes from _meta: the W3C trace
// context and baggage, ignoring what is malformed, of another type, or too
// large.
func TestExtract(t *testing.T) {
	in := newInstruments(nil, metricServerSession)
	huge := "k=" + strings.Repeat("v", maxCarriedValue)
	tests := []struct {
		name        string
		data        map[string]any
		wantParent  bool
		wantBaggage int
	}{
		{"none", nil, false, 0},
		{"traceparent", map[string]any{"traceparent": testParent}, true, 0},
		{"traceparent and baggage", map[string]any{"traceparent": testParent, "baggage": testBaggageVal}, true, 2},
		{"baggage alone", map[string]any{"baggage": testBaggageVal}, false, 2},
		{"unknown version byte", map[string]any{"traceparent": "ff-" + testTraceID + "-" + testSpanID + "-01"}, false, 0},
		{"short", map[string]any{"traceparent": "00-abc"}, false, 0},
		{"zero trace id", map[string]any{"traceparent": "00-00000000000000000000000000000000-" + testSpanID + "-01"}, false, 0},
		{"not a string", map[string]any{"traceparent": map[string]any{"x": 1}}, false, 0},
		{"oversized baggage", map[string]any{"traceparent": testParent, "baggage": huge}, true, 0},
		{"malformed baggage", map[string]any{"baggage": "=;=,,"}, false, 0},
		{"other keys only", map[string]any{"vendor/x": "y"}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &mcp.CallToolParams{Name: "greet", Meta: mcp.Meta{Data: tt.data}}
			ctx, _ := in.extract(context.Background(), p)
			sc := trace.SpanContextFromContext(ctx)
			if sc.IsValid() != tt.wantParent {
				t.Errorf("span context valid = %v, want %v", sc.IsValid(), tt.wantParent)
			}
			if tt.wantParent && (sc.TraceID().String() != testTraceID || sc.SpanID().String() != testSpanID || !sc.IsRemote()) {
				t.Errorf("span context = %v", sc)
			}
			if n := baggage.FromContext(ctx).Len(); n != tt.wantBaggage {
				t.Errorf("%d baggage members, want %d", n, tt.wantBaggage)
			}
		})
	}
}

// TestInjectMerges checks that injection adds the trace context to the
// _meta already there, and never writes into the caller's map.
func TestInjectMerges(t *testing.T) {
	in := newInstruments(nil, metricClientSession)
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: mustTraceID(t, testTraceID), SpanID: mustSpanID(t, testSpanID), TraceFlags: trace.FlagsSampled,
	})
	ctx := trace.ContextWithSpanContext(context.Background(), sc)
	bag, err := baggage.Parse(testBaggageVal)
	if err != nil {
		t.Fatal(err)
	}
	ctx = baggage.ContextWithBaggage(ctx, bag)
	shared := map[string]any{"vendor/x": "y"}
	p := &mcp.CallToolParams{Name: "greet", Meta: mcp.Meta{ProgressToken: "p1", Data: shared}}
	in.inject(ctx, p)
	if got := p.Meta.Data["traceparent"]; got != testParent {
		t.Errorf("traceparent = %v, want %s", got, testParent)
	}
	if got, _ := p.Meta.Data["baggage"].(string); !strings.Contains(got, "user=ada") {
		t.Errorf("baggage = %q", got)
	}
	if p.Meta.Data["vendor/x"] != "y" || p.Meta.ProgressToken != "p1" {
		t.Errorf("existing _meta lost: %+v", p.Meta)
	}
	if len(shared) != 1 {
		t.Errorf("the caller's map was written: %v", shared)
	}

	// Nothing to inject: _meta stays as it was.
	q := &mcp.ListToolsParams{}
	in.inject(context.Background(), q)
	if q.Meta.Data != nil {
		t.Errorf("injected into _meta without a trace context: %v", q.Meta.Data)
	}
}

// TestCustomPropagator checks that Options.Propagator replaces the W3C
// default on both sides.
func TestCustomPropagator(t *testing.T) {
	in := newInstruments(&Options{Propagator: propagation.Baggage{}}, metricClientSession)
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: mustTraceID(t, testTraceID), SpanID: mustSpanID(t, testSpanID)})
	ctx := trace.ContextWithSpanContext(context.Background(), sc)
	p := &mcp.CallToolParams{}
	in.inject(ctx, p)
	if _, ok := p.Meta.Data["traceparent"]; ok {
		t.Errorf("a baggage-only propagator injected traceparent: %v", p.Meta.Data)
	}
	out, _ := in.extract(context.Background(), &mcp.CallToolParams{Meta: mcp.Meta{Data: map[string]any{"traceparent": testParent}}})
	if trace.SpanContextFromContext(out).IsValid() {
		t.Error("a baggage-only propagator extracted traceparent")
	}
}

// TestMetaOf checks that the _meta of every params type is found, by the
// fast path or by reflection.
func TestMetaOf(t *testing.T) {
	for _, p := range []any{
		&mcp.CallToolParams{}, &mcp.GetPromptParams{}, &mcp.ReadResourceParams{}, &mcp.ListToolsParams{},
		&mcp.ProgressNotificationParams{}, &mcp.CreateMessageParams{}, &mcp.ElicitParams{}, &mcp.ListRootsParams{},
		&mcp.InitializeParams{}, &mcp.CancelledParams{}, &mcp.SubscribeParams{}, &mcp.ListPromptsParams{},
	} {
		if metaOf(p) == nil {
			t.Errorf("%T: no _meta found", p)
		}
	}
	for _, p := range []any{nil, (*mcp.CallToolParams)(nil), (*mcp.InitializeParams)(nil), struct{}{}, &struct{ Meta int }{}, 3} {
		if metaOf(p) != nil {
			t.Errorf("%T: found a _meta", p)
		}
	}
}

// FuzzExtract feeds arbitrary trace context to the server side: it must
// never panic, and never keep baggage over the W3C size limit.
func FuzzExtract(f *testing.F) {
	f.Add(testParent, "vendor=value", testBaggageVal)
	f.Add("00-"+testTraceID+"-"+testSpanID+"-ff", "", "")
	f.Add("", "a=b,c=d", "k=v;prop=1")
	f.Add("zz", "=", "%ff=%zz")
	in := newInstruments(nil, metricServerSession)
	f.Fuzz(func(t *testing.T, traceparent, tracestate, bag string) {
		p := &mcp.CallToolParams{Meta: mcp.Meta{Data: map[string]any{
			"traceparent": traceparent, "tracestate": tracestate, "baggage": bag,
		}}}
		ctx, _ := in.extract(context.Background(), p)
		if b := baggage.FromContext(ctx); len(b.String()) > maxCarriedValue {
			t.Errorf("kept %d bytes of baggage", len(b.String()))
		}
		if len(bag) > maxCarriedValue && baggage.FromContext(ctx).Len() != 0 {
			t.Error("oversized baggage was not dropped")
		}
	})
}

func mustTraceID(t *testing.T, s string) trace.TraceID {
	t.Helper()
	id, err := trace.TraceIDFromHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mustSpanID(t *testing.T, s string) trace.SpanID {
	t.Helper()
	id, err := trace.SpanIDFromHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
