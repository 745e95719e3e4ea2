package otel

import (
	"context"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// TestServerToClientRequests checks each request a server sends its client
// in both eras (directly in the legacy era, as an input request of an
// input-required result in 2026-07-28): the client's SERVER span for it is
// the child of the server's CLIENT span, which is the child of the
// server's span for the tool call that asked.
func TestServerToClientRequests(t *testing.T) {
	asks := []struct {
		method string
		ask    func(context.Context, *mcp.ServerSession) error
	}{
		{mcp.MethodListRoots, func(ctx context.Context, ss *mcp.ServerSession) error {
			//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; tested here: it is instrumented
			_, err := ss.ListRoots(ctx, nil)
			return err
		}},
		{mcp.MethodElicit, func(ctx context.Context, ss *mcp.ServerSession) error {
			_, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "ok?", RequestedSchema: &mcp.ElicitationSchema{Type: "object"}})
			return err
		}},
	}
	for _, era := range eras {
		for _, a := range asks {
			t.Run(era.name+"/"+a.method, func(t *testing.T) {
				tm := newTelemetry(t)
				server := mcp.NewServer("s", "v1", nil)
				server.AddTools(mcp.NewTool("ask", "asks the client", func(ctx context.Context, ss *mcp.ServerSession, in struct{}) ([]*mcp.Content, error) {
					if err := a.ask(ctx, ss); err != nil {
						return nil, err
					}
					return []*mcp.Content{mcp.NewTextContent("asked")}, nil
				}))
				InstrumentServer(server, tm.opts)
				client := mcp.NewClient("c", "v1", &mcp.ClientOptions{
					ProtocolVersion: era.request,
					ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
						return &mcp.ElicitResult{Action: "decline"}, nil
					},
				})
				//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; tested here: it is instrumented
				client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
				InstrumentClient(client, tm.opts)
				cs := connect(t, server, client)
				res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, nil)
				if err != nil || res.IsError {
					t.Fatalf("ask: %v %+v", err, res)
				}
				handled := spanOf(t, tm, a.method, trace.SpanKindServer)
				asked := tm.spanByID(handled.Parent().SpanID())
				if asked == nil || asked.Name() != a.method || asked.SpanKind() != trace.SpanKindClient {
					t.Fatalf("the client's %s span's parent is %v, want the server's CLIENT span (all: %v)", a.method, asked, spanNames(tm))
				}
				call := tm.spanByID(asked.Parent().SpanID())
				if call == nil || call.Name() != "tools/call ask" || call.SpanKind() != trace.SpanKindServer {
					t.Errorf("the server's %s span's parent is %v, want its tools/call span", a.method, call)
				}
				for _, s := range tm.ended(a.method) {
					if v, ok := attrs(s.Attributes())["error.type"]; ok {
						t.Errorf("%v %s span: error.type %q", s.SpanKind(), a.method, v)
					}
				}
			})
		}
	}
}

// TestLogNotificationsNotTraced checks that log notifications make no span
// on either side, like the peers' instrumentations.
func TestLogNotificationsNotTraced(t *testing.T) {
	tm := newTelemetry(t)
	server := mcp.NewServer("s", "v1", nil)
	server.AddTools(mcp.NewTool("log", "logs", func(ctx context.Context, ss *mcp.ServerSession, in struct{}) ([]*mcp.Content, error) {
		//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; tested here: it is instrumented
		return []*mcp.Content{mcp.NewTextContent("logged")}, ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "hello"})
	}))
	InstrumentServer(server, tm.opts)
	got := make(chan struct{}, 1)
	client := mcp.NewClient("c", "v1", &mcp.ClientOptions{
		ProtocolVersion: "2025-11-25",
		LoggingMessageHandler: func(context.Context, *mcp.ClientSession, *mcp.LoggingMessageParams) {
			got <- struct{}{}
		},
	})
	InstrumentClient(client, tm.opts)
	cs := connect(t, server, client)
	//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; tested here: it is instrumented
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), "log", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no log message in 5s")
	}
	spanOf(t, tm, "logging/setLevel", trace.SpanKindServer)
	if n := len(tm.ended(mcp.NotificationLoggingMessage)); n != 0 {
		t.Errorf("%d spans for notifications/message, want none", n)
	}
	for _, name := range []string{"mcp.client.operation.duration", "mcp.server.operation.duration"} {
		for _, dp := range tm.histogram(t, name) {
			if attrs(dp.Attributes.ToSlice())["mcp.method.name"] == mcp.NotificationLoggingMessage {
				t.Errorf("%s measured notifications/message", name)
			}
		}
	}
}
