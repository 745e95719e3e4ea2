package otel

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// eras are the protocol versions the tests run in: the newest legacy one,
// with its initialize handshake, and 2026-07-28, stateless.
var eras = []struct {
	name, request, want string
}{
	{"legacy", "2025-11-25", "2025-11-25"},
	{"modern", "", "2026-07-28"},
}

// TestServerSpans checks the SERVER span of each kind of request: its
// name, kind, attributes and status, in both eras.
func TestServerSpans(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server := greeter()
			InstrumentServer(server, tm.opts)
			cs := connect(t, server, newClient(era.request))
			ctx := context.Background()

			if _, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, "fail", map[string]any{}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, "nope", map[string]any{}, nil); err == nil {
				t.Fatal("calling an unknown tool succeeded")
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "welcome"}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///readme"}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}

			for _, tt := range serverSpanCases {
				spans := tm.ended(tt.span)
				if len(spans) != 1 {
					t.Errorf("%d spans named %q, want 1", len(spans), tt.span)
					continue
				}
				s := spans[0]
				if s.SpanKind() != trace.SpanKindServer {
					t.Errorf("%s: kind %v, want server", tt.span, s.SpanKind())
				}
				got := attrs(s.Attributes())
				want := map[string]string{"mcp.protocol.version": era.want}
				for k, v := range tt.want {
					want[k] = v
				}
				if tt.errorType != "" {
					want["error.type"] = tt.errorType
				}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: %s = %q, want %q", tt.span, k, got[k], v)
					}
				}
				absent := append(tt.absent, "gen_ai.tool.call.arguments")
				if tt.errorType == "" {
					absent = append(absent, "error.type")
				}
				for _, k := range absent {
					if v, ok := got[k]; ok {
						t.Errorf("%s: has %s = %q", tt.span, k, v)
					}
				}
				if (s.Status().Code == codes.Error) != (tt.errorType != "") {
					t.Errorf("%s: status %v with error.type %q", tt.span, s.Status(), tt.errorType)
				}
			}
		})
	}
}

// serverSpanCases lists the SERVER span each request of TestServerSpans
// ends, with the attributes it must have (besides mcp.protocol.version)
// and must not, and its error.type if it failed.
var serverSpanCases = []struct {
	span      string
	want      map[string]string
	absent    []string
	errorType string
}{
	{span: "tools/call greet", want: map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "greet", "gen_ai.operation.name": "execute_tool",
	}},
	{span: "tools/call fail", want: map[string]string{"gen_ai.tool.name": "fail"}, errorType: "tool_error", absent: []string{"rpc.response.status_code"}},
	{span: "tools/call nope", want: map[string]string{"rpc.response.status_code": "-32602"}, errorType: "-32602"},
	{span: "prompts/get welcome", want: map[string]string{"mcp.method.name": "prompts/get", "gen_ai.prompt.name": "welcome"}, absent: []string{"gen_ai.operation.name"}},
	{span: "resources/read", want: map[string]string{"mcp.method.name": "resources/read", "mcp.resource.uri": "file:///readme"}},
	{span: "tools/list", want: map[string]string{"mcp.method.name": "tools/list"}, absent: []string{"gen_ai.tool.name"}},
}

// TestServerParentFromMeta checks that the SERVER span continues the
// trace whose context a request carries in _meta, and that a malformed
// traceparent is ignored: the span is a root, and the call succeeds.
func TestServerParentFromMeta(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server := greeter()
			InstrumentServer(server, tm.opts)
			cs := connect(t, server, newClient(era.request))
			ctx := context.Background()

			const traceID, spanID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
			good := &mcp.CallToolOptions{Meta: mcp.Meta{Data: map[string]any{
				"traceparent": "00-" + traceID + "-" + spanID + "-01",
				"tracestate":  "vendor=value",
			}}}
			if _, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, good); err != nil {
				t.Fatal(err)
			}
			for _, bad := range []any{"00-zz-00f067aa0ba902b7-01", "garbage", 42, "00-00000000000000000000000000000000-00f067aa0ba902b7-01"} {
				opts := &mcp.CallToolOptions{Meta: mcp.Meta{Data: map[string]any{"traceparent": bad}}}
				if _, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Bob"}, opts); err != nil {
					t.Fatalf("traceparent %v: %v", bad, err)
				}
			}
			spans := tm.ended("tools/call greet")
			if len(spans) != 5 {
				t.Fatalf("%d spans, want 5", len(spans))
			}
			parent := spans[0].Parent()
			if !parent.IsRemote() || parent.TraceID().String() != traceID || parent.SpanID().String() != spanID {
				t.Errorf("parent = %v, want remote %s/%s", parent, traceID, spanID)
			}
			if got := spans[0].SpanContext().TraceState().Get("vendor"); got != "value" {
				t.Errorf("tracestate vendor = %q, want value", got)
			}
			for i, s := range spans[1:] {
				if s.Parent().IsValid() {
					t.Errorf("malformed traceparent %d: span has parent %v", i, s.Parent())
				}
			}
		})
	}
}
