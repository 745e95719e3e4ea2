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
