package otel

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// TestOuterExecuteToolSpan checks that a tools/call sent under an
// execute_tool span adds its attributes to that span instead of starting a
// CLIENT span (the server's span becomes the execute_tool span's child),
// that a failed call marks it, and that NestToolSpans starts a CLIENT span
// under it instead.
func TestOuterExecuteToolSpan(t *testing.T) {
	cases := []struct {
		name, outer, tool string
		nest              bool
		wantErrType       string
	}{
		{name: "adopted", outer: "execute_tool greet", tool: "greet"},
		{name: "adopted without a tool name", outer: "execute_tool", tool: "greet"},
		{name: "tool error", outer: "execute_tool fail", tool: "fail", wantErrType: "tool_error"},
		{name: "nested", outer: "execute_tool greet", tool: "greet", nest: true},
	}
	for _, era := range eras {
		for _, tc := range cases {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				tm := newTelemetry(t)
				tm.opts.NestToolSpans = tc.nest
				server, client := pair(tm, era.request)
				cs := connect(t, server, client)
				ctx, outer := tm.opts.TracerProvider.Tracer("agent").Start(context.Background(), tc.outer)
				if _, err := cs.CallTool(ctx, tc.tool, map[string]any{"name": "Ada"}, nil); err != nil {
					t.Fatal(err)
				}
				if n := len(tm.ended(tc.outer)); n != 0 {
					t.Fatalf("the instrumentation ended the execute_tool span (%d ended)", n)
				}
				outer.End()
				ospan := spanOf(t, tm, tc.outer, trace.SpanKindInternal)
				sspan := spanOf(t, tm, "tools/call "+tc.tool, trace.SpanKindServer)
				clients := 0
				for _, s := range tm.ended("tools/call " + tc.tool) {
					if s.SpanKind() == trace.SpanKindClient {
						clients++
					}
				}
				if tc.nest {
					cspan := spanOf(t, tm, "tools/call "+tc.tool, trace.SpanKindClient)
					checkChild(t, ospan, cspan)
					checkChild(t, cspan, sspan)
					if _, ok := attrs(ospan.Attributes())["mcp.method.name"]; ok {
						t.Error("the nesting execute_tool span got the call's attributes")
					}
					return
				}
				if clients != 0 {
					t.Errorf("%d CLIENT spans under the execute_tool span, want none", clients)
				}
				checkChild(t, ospan, sspan)
				oa, sa := attrs(ospan.Attributes()), attrs(sspan.Attributes())
				want := map[string]string{
					"mcp.method.name": "tools/call", "gen_ai.tool.name": tc.tool, "gen_ai.operation.name": "execute_tool",
					"mcp.protocol.version": era.want, "network.transport": "pipe", "jsonrpc.request.id": sa["jsonrpc.request.id"],
				}
				for k, v := range want {
					if oa[k] != v {
						t.Errorf("execute_tool span: %s = %q, want %q", k, oa[k], v)
					}
				}
				if oa["error.type"] != tc.wantErrType {
					t.Errorf("execute_tool span: error.type = %q, want %q", oa["error.type"], tc.wantErrType)
				}
				wantCode := codes.Unset
				if tc.wantErrType != "" {
					wantCode = codes.Error
				}
				if got := ospan.Status().Code; got != wantCode {
					t.Errorf("execute_tool span status %v, want %v", ospan.Status(), wantCode)
				}
			})
		}
	}
}

func TestIsExecuteToolName(t *testing.T) {
	for name, want := range map[string]bool{
		"execute_tool":         true,
		"execute_tool greet":   true,
		"execute_tool a b":     true,
		"execute_tools":        false,
		"execute_toolgreet":    false,
		"tools/call greet":     false,
		"invoke_agent":         false,
		"":                     false,
		" execute_tool greet":  false,
		"Execute_tool greet":   false,
		"execute_tool\tgreet":  false,
		"execute_tool\u00a0go": false,
	} {
		if got := isExecuteToolName(name); got != want {
			t.Errorf("isExecuteToolName(%q) = %v, want %v", name, got, want)
		}
	}
}
