package otel

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// pair makes an instrumented server (greeter plus a tool that samples the
// client and one that reports progress) and an instrumented client that
// answers sampling requests, both recording into tm.
func pair(tm *telemetry, version string) (*mcp.Server, *mcp.Client) {
	server := greeter()
	server.AddTools(
		mcp.NewTool("ask", "asks the client's model", func(ctx context.Context, ss *mcp.ServerSession, a struct{}) ([]*mcp.Content, error) {
			//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; tested here: it is instrumented
			res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: []*mcp.Content{mcp.NewTextContent("hi?")}}},
				MaxTokens: 10,
			})
			if err != nil {
				return nil, err
			}
			return res.Content, nil
		}),
		&mcp.ServerTool{
			Tool: &mcp.Tool{Name: "progress", InputSchema: map[string]any{"type": "object"}},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.Meta.ProgressToken, Progress: 1, Total: 2})
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("done")}}, nil
			},
		},
	)
	InstrumentServer(server, tm.opts)
	client := mcp.NewClient("tester", "v0.0.1", &mcp.ClientOptions{
		ProtocolVersion: version,
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; tested here: it is instrumented
		CreateMessageHandler: func(ctx context.Context, cs *mcp.ClientSession, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Content: []*mcp.Content{mcp.NewTextContent("hello")}, Model: "test"}, nil
		},
	})
	InstrumentClient(client, tm.opts)
	return server, client
}

// spanOf returns the one ended span named name of the given kind, failing
// the test if there is not exactly one.
func spanOf(t *testing.T, tm *telemetry, name string, kind trace.SpanKind) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range tm.ended(name) {
		if s.SpanKind() == kind {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %v spans named %q, want 1 (all: %v)", len(found), kind, name, spanNames(tm))
	}
	return found[0]
}

func spanNames(tm *telemetry) []string {
	var names []string
	for _, s := range tm.spans.Ended() {
		names = append(names, s.SpanKind().String()+":"+s.Name())
	}
	return names
}

// checkChild fails unless child's parent is parent.
func checkChild(t *testing.T, parent, child sdktrace.ReadOnlySpan) {
	t.Helper()
	if child.Parent().TraceID() != parent.SpanContext().TraceID() || child.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("%s %q is not a child of %s %q: parent %v, want %v", child.SpanKind(), child.Name(),
			parent.SpanKind(), parent.Name(), child.Parent().SpanID(), parent.SpanContext().SpanID())
	}
}

// TestToolCallTrace checks a tool call traced end to end in memory: the
// CLIENT span is a child of the caller's span, the SERVER span a child of
// the CLIENT span, and both carry the same request id and attributes.
func TestToolCallTrace(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cs := connect(t, server, client)
			tracer := tm.opts.TracerProvider.Tracer("test")
			ctx, outer := tracer.Start(context.Background(), "invoke_agent")
			if _, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, nil); err != nil {
				t.Fatal(err)
			}
			outer.End()
			cspan := spanOf(t, tm, "tools/call greet", trace.SpanKindClient)
			sspan := spanOf(t, tm, "tools/call greet", trace.SpanKindServer)
			checkChild(t, spanOf(t, tm, "invoke_agent", trace.SpanKindInternal), cspan)
			checkChild(t, cspan, sspan)
			ca, sa := attrs(cspan.Attributes()), attrs(sspan.Attributes())
			for _, a := range []map[string]string{ca, sa} {
				want := map[string]string{
					"mcp.method.name": "tools/call", "gen_ai.tool.name": "greet", "gen_ai.operation.name": "execute_tool",
					"mcp.protocol.version": era.want, "network.transport": "pipe",
				}
				for k, v := range want {
					if a[k] != v {
						t.Errorf("%s = %q, want %q", k, a[k], v)
					}
				}
				for _, k := range []string{"mcp.session.id", "error.type", "gen_ai.tool.call.arguments"} {
					if v, ok := a[k]; ok {
						t.Errorf("%s = %q, want none", k, v)
					}
				}
			}
			if ca["jsonrpc.request.id"] == "" || ca["jsonrpc.request.id"] != sa["jsonrpc.request.id"] {
				t.Errorf("jsonrpc.request.id: client %q, server %q", ca["jsonrpc.request.id"], sa["jsonrpc.request.id"])
			}
		})
	}
}

// TestLegacyHandshakeSpans checks the spans of the legacy handshake:
// initialize pairs, and the initialized notification, which has no request
// id.
func TestLegacyHandshakeSpans(t *testing.T) {
	tm := newTelemetry(t)
	server, client := pair(tm, "2025-11-25")
	connect(t, server, client)
	ci := spanOf(t, tm, "initialize", trace.SpanKindClient)
	si := spanOf(t, tm, "initialize", trace.SpanKindServer)
	checkChild(t, ci, si)
	if v := attrs(ci.Attributes())["mcp.protocol.version"]; v != "2025-11-25" {
		t.Errorf("initialize CLIENT span: mcp.protocol.version = %q", v)
	}
	waitFor(t, func() bool { return len(tm.ended("notifications/initialized")) == 2 })
	cn := spanOf(t, tm, "notifications/initialized", trace.SpanKindClient)
	sn := spanOf(t, tm, "notifications/initialized", trace.SpanKindServer)
	checkChild(t, cn, sn)
	for _, s := range []sdktrace.ReadOnlySpan{cn, sn} {
		if v, ok := attrs(s.Attributes())["jsonrpc.request.id"]; ok {
			t.Errorf("%v notification span has jsonrpc.request.id %q", s.SpanKind(), v)
		}
	}
}

// TestServerToClientTrace checks the other direction: a tool that samples
// the client makes a CLIENT span on the server, and the client's SERVER
// span for the sampling request is its child; a progress notification
// travels the same way.
func TestServerToClientTrace(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cs := connect(t, server, client)
			res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, nil)
			if err != nil || res.IsError {
				t.Fatalf("ask: %v %+v", err, res)
			}
			handled := spanOf(t, tm, "sampling/createMessage", trace.SpanKindServer) // on the client
			var asked sdktrace.ReadOnlySpan
			for _, s := range tm.ended("sampling/createMessage") {
				if s.SpanKind() == trace.SpanKindClient && s.SpanContext().SpanID() == handled.Parent().SpanID() {
					asked = s
				}
				if s.Status().Code == codes.Error {
					t.Errorf("%v sampling span has status %v", s.SpanKind(), s.Status())
				}
			}
			if asked == nil {
				t.Fatalf("the client's sampling span is not a child of a server CLIENT span (all: %v)", spanNames(tm))
			}
			// The server's sampling span is a child of one of its own tools/call spans.
			parentFound := false
			for _, s := range tm.ended("tools/call ask") {
				if s.SpanKind() == trace.SpanKindServer && s.SpanContext().SpanID() == asked.Parent().SpanID() {
					parentFound = true
				}
			}
			if !parentFound {
				t.Errorf("the server's sampling span is not a child of its tools/call span")
			}

			if _, err := cs.CallTool(context.Background(), "progress", map[string]any{}, &mcp.CallToolOptions{
				ProgressHandler: func(context.Context, *mcp.ProgressNotificationParams) {},
			}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return len(tm.ended("notifications/progress")) == 2 })
			sent := spanOf(t, tm, "notifications/progress", trace.SpanKindClient)
			got := spanOf(t, tm, "notifications/progress", trace.SpanKindServer)
			checkChild(t, sent, got)
			checkChild(t, spanOf(t, tm, "tools/call progress", trace.SpanKindServer), sent)
		})
	}
}

// TestErrorTypes checks error.type on both sides: the JSON-RPC code of an
// error response, and tool_error for a result with isError.
func TestErrorTypes(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cs := connect(t, server, client)
			ctx := context.Background()
			if _, err := cs.CallTool(ctx, "nope", map[string]any{}, nil); err == nil {
				t.Fatal("unknown tool: no error")
			}
			res, err := cs.CallTool(ctx, "fail", map[string]any{}, nil)
			if err != nil || !res.IsError {
				t.Fatalf("fail: %v %+v", err, res)
			}
			for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
				s := spanOf(t, tm, "tools/call nope", kind)
				a := attrs(s.Attributes())
				if a["error.type"] != "-32602" || a["rpc.response.status_code"] != "-32602" || s.Status().Code != codes.Error || s.Status().Description == "" {
					t.Errorf("%v unknown tool: error.type %q, status code %q, status %v", kind, a["error.type"], a["rpc.response.status_code"], s.Status())
				}
				s = spanOf(t, tm, "tools/call fail", kind)
				a = attrs(s.Attributes())
				if a["error.type"] != "tool_error" || s.Status().Code != codes.Error {
					t.Errorf("%v failing tool: error.type %q, status %v", kind, a["error.type"], s.Status())
				}
				if v, ok := a["rpc.response.status_code"]; ok {
					t.Errorf("%v failing tool: rpc.response.status_code %q on a result", kind, v)
				}
			}
		})
	}
}

// TestCancelledCallEndsSpans checks that cancelling a call ends both spans
// and leaves none open.
func TestCancelledCallEndsSpans(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cs := connect(t, server, client)
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				waitFor(t, func() bool { return len(tm.spans.Started()) > len(tm.spans.Ended())+1 })
				cancel()
			}()
			if _, err := cs.CallTool(ctx, "block", map[string]any{}, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("blocked call: %v, want context.Canceled", err)
			}
			waitFor(t, func() bool { return len(tm.ended("tools/call block")) == 2 })
			c := spanOf(t, tm, "tools/call block", trace.SpanKindClient)
			if v := attrs(c.Attributes())["error.type"]; v != "cancelled" {
				t.Errorf("cancelled CLIENT span: error.type %q, want cancelled", v)
			}
			if err := cs.Close(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return len(tm.spans.Started()) == len(tm.spans.Ended()) })
		})
	}
}

// TestHTTPTrace checks the tool call over streamable HTTP, in both eras:
// parent and child across the network, tcp and http attributes, and the
// session id in the legacy era only.
func TestHTTPTrace(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
			// An HTTP-level span around every request, as otelhttp makes.
			tracer := tm.opts.TracerProvider.Tracer("http")
			traced := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ctx, span := tracer.Start(r.Context(), "HTTP "+r.Method, trace.WithSpanKind(trace.SpanKindServer))
				defer span.End()
				handler.ServeHTTP(w, r.WithContext(ctx))
			})
			ts := httptest.NewServer(traced)
			defer ts.Close()
			defer handler.Close()
			cs, err := client.Connect(context.Background(), mcp.NewStreamableClientTransport(ts.URL, nil))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
				t.Fatal(err)
			}
			c := spanOf(t, tm, "tools/call greet", trace.SpanKindClient)
			s := spanOf(t, tm, "tools/call greet", trace.SpanKindServer)
			checkChild(t, c, s)
			ca, sa := attrs(c.Attributes()), attrs(s.Attributes())
			for side, a := range map[string]map[string]string{"client": ca, "server": sa} {
				if a["network.transport"] != "tcp" || a["network.protocol.name"] != "http" || a["mcp.protocol.version"] != era.want {
					t.Errorf("%s span: transport %q, protocol %q, version %q", side, a["network.transport"], a["network.protocol.name"], a["mcp.protocol.version"])
				}
				_, hasSession := a["mcp.session.id"]
				if hasSession != (era.name == "legacy") {
					t.Errorf("%s span: mcp.session.id %q in the %s era", side, a["mcp.session.id"], era.name)
				}
			}
			if era.name == "legacy" && ca["mcp.session.id"] != sa["mcp.session.id"] {
				t.Errorf("mcp.session.id: client %q, server %q", ca["mcp.session.id"], sa["mcp.session.id"])
			}
			if sa["client.address"] != "127.0.0.1" || sa["client.port"] == "" {
				t.Errorf("server span: client.address %q, client.port %q", sa["client.address"], sa["client.port"])
			}
			if ca["server.address"] != "127.0.0.1" || ca["server.port"] != ts.URL[strings.LastIndex(ts.URL, ":")+1:] {
				t.Errorf("client span: server.address %q, server.port %q (server at %s)", ca["server.address"], ca["server.port"], ts.URL)
			}
			// The MCP span's parent is the client's span from _meta; it
			// links to the HTTP span that carried the message.
			links := s.Links()
			if len(links) == 1 { // the HTTP span ends after the response is written
				waitFor(t, func() bool { return tm.spanByID(links[0].SpanContext.SpanID()) != nil })
			}
			if len(links) != 1 || tm.spanByID(links[0].SpanContext.SpanID()) == nil ||
				tm.spanByID(links[0].SpanContext.SpanID()).Name() != "HTTP POST" {
				t.Errorf("server span links: %+v, want one to the HTTP POST span", links)
			}
			if err := cs.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("condition not met in 5s")
			return
		}
		time.Sleep(time.Millisecond)
	}
}
