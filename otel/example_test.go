package otel_test

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/mcp"
	mcpotel "github.com/gomcp/sdk/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Instrument a server and a client; the server's span for a tool call is a
// child of the client's, carried by the traceparent in the request's
// _meta.
func Example() {
	// docs:region instrument
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(context.Background())
	opts := &mcpotel.Options{TracerProvider: tp}

	server := mcp.NewServer("greeter", "v1.0.0", nil)
	mcpotel.InstrumentServer(server, opts)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in struct {
		Name string `json:"name"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
	}))
	client := mcp.NewClient("agent", "v1.0.0", nil)
	mcpotel.InstrumentClient(client, opts)
	// docs:endregion

	ct, st := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(context.Background(), st)
	cs, _ := client.Connect(context.Background(), ct)
	if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
		fmt.Println(err)
	}
	cs.Close()
	ss.Wait()

	var clientSpan, serverSpan sdktrace.ReadOnlySpan
	for _, s := range spans.Ended() {
		if s.Name() == "tools/call greet" {
			fmt.Println(s.SpanKind(), s.Name())
			if s.SpanKind().String() == "client" {
				clientSpan = s
			} else {
				serverSpan = s
			}
		}
	}
	fmt.Println("server span is the client span's child:", serverSpan.Parent().SpanID() == clientSpan.SpanContext().SpanID())
	// Output:
	// server tools/call greet
	// client tools/call greet
	// server span is the client span's child: true
}

// Record the arguments and results of tool calls on their spans, an opt-in
// of the conventions: they may hold personal or secret data.
func ExampleOptions_recordToolCalls() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(context.Background())
	// docs:region toolcalls
	opts := &mcpotel.Options{
		TracerProvider:  tp,
		RecordToolCalls: true, // gen_ai.tool.call.arguments and gen_ai.tool.call.result
		MaxToolCallSize: 1024, // bytes of each; longer texts are cut
	}
	// docs:endregion
	cs, done := greeterPair(opts)
	if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
		fmt.Println(err)
	}
	done()

	for _, s := range spans.Ended() {
		if s.Name() != "tools/call greet" {
			continue
		}
		for _, kv := range s.Attributes() {
			if kv.Key == "gen_ai.tool.call.arguments" || kv.Key == "gen_ai.tool.call.result" {
				fmt.Println(s.SpanKind(), kv.Key, kv.Value.AsString())
			}
		}
	}
	// Output:
	// server gen_ai.tool.call.arguments {"name":"Ada"}
	// server gen_ai.tool.call.result {"content":[{"type":"text","text":"Hi Ada"}]}
	// client gen_ai.tool.call.arguments {"name":"Ada"}
	// client gen_ai.tool.call.result {"content":[{"type":"text","text":"Hi Ada"}]}
}

// An agent framework that traces each tool it runs with an execute_tool
// span gets the MCP call's attributes on that span, and the server's span
// as its child, instead of a CLIENT span nested in it.
func Example_executeTool() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(context.Background())
	cs, done := greeterPair(&mcpotel.Options{TracerProvider: tp})

	// docs:region executetool
	ctx, span := tp.Tracer("agent").Start(context.Background(), "execute_tool greet")
	_, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, nil)
	span.End()
	// docs:endregion
	if err != nil {
		fmt.Println(err)
	}
	done()

	var tool, server sdktrace.ReadOnlySpan
	for _, s := range spans.Ended() {
		switch s.Name() {
		case "execute_tool greet":
			tool = s
		case "tools/call greet":
			fmt.Println(s.SpanKind(), s.Name())
			server = s
		}
	}
	for _, kv := range tool.Attributes() {
		if kv.Key == "mcp.method.name" || kv.Key == "gen_ai.tool.name" {
			fmt.Println("execute_tool span:", kv.Key, kv.Value.AsString())
		}
	}
	fmt.Println("server span is the execute_tool span's child:", server.Parent().SpanID() == tool.SpanContext().SpanID())
	// Output:
	// server tools/call greet
	// execute_tool span: mcp.method.name tools/call
	// execute_tool span: gen_ai.tool.name greet
	// server span is the execute_tool span's child: true
}

// greeterPair connects an instrumented client to an instrumented greeter
// in memory; done closes both.
func greeterPair(opts *mcpotel.Options) (cs *mcp.ClientSession, done func()) {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	mcpotel.InstrumentServer(server, opts)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in struct {
		Name string `json:"name"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
	}))
	client := mcp.NewClient("agent", "v1.0.0", nil)
	mcpotel.InstrumentClient(client, opts)
	ct, st := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(context.Background(), st)
	cs, _ = client.Connect(context.Background(), ct)
	return cs, func() {
		cs.Close()
		ss.Wait()
	}
}
