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

// TestServerRequestIDAtSpanStart checks that a server's request to the
// client (elicitation, sampling, roots, ping) starts its CLIENT span with
// its jsonrpc.request.id in the legacy era, the id the client's SERVER span
// reports; and that in 2026-07-28, where the server asks through an
// input-required result and sends no request, the span starts without one.
func TestServerRequestIDAtSpanStart(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			legacy := era.request != ""
			sampler := &startRecorder{}
			tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			opts := &Options{TracerProvider: tp}
			server := mcp.NewServer("s", "v1", nil)
			server.AddTools(mcp.NewTool("ask", "asks the client", func(ctx context.Context, ss *mcp.ServerSession, in struct{}) ([]*mcp.Content, error) {
				if _, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "ok?", RequestedSchema: &mcp.ElicitationSchema{Type: "object"}}); err != nil {
					return nil, err
				}
				//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; tested here: it is instrumented
				if _, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 1, Messages: []*mcp.SamplingMessage{{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent("hi")}}}}); err != nil {
					return nil, err
				}
				//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; tested here: it is instrumented
				if _, err := ss.ListRoots(ctx, nil); err != nil {
					return nil, err
				}
				if legacy {
					if err := ss.Ping(ctx, nil); err != nil {
						return nil, err
					}
				}
				return []*mcp.Content{mcp.NewTextContent("asked")}, nil
			}))
			InstrumentServer(server, opts)
			client := mcp.NewClient("c", "v1", &mcp.ClientOptions{
				ProtocolVersion: era.request,
				ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
				//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; tested here: it is instrumented
				CreateMessageHandler: func(context.Context, *mcp.ClientSession, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
					return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Content: []*mcp.Content{mcp.NewTextContent("hello")}, Model: "m"}, nil
				},
			})
			//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; tested here: it is instrumented
			client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
			InstrumentClient(client, opts)
			cs := connect(t, server, client)
			if res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, nil); err != nil || res.IsError {
				t.Fatalf("ask: %v %+v", err, res)
			}
			methods := []string{mcp.MethodElicit, mcp.MethodCreateMessage, mcp.MethodListRoots}
			if legacy {
				methods = append(methods, mcp.MethodPing)
			}
			seen := map[string]string{}
			for _, m := range methods {
				c := sampler.at("client " + m)
				if c == nil {
					t.Errorf("no CLIENT span %s started", m)
					continue
				}
				id, has := c["jsonrpc.request.id"]
				if !legacy {
					if has {
						t.Errorf("%s asked through an input-required result: CLIENT span started with jsonrpc.request.id %q", m, id)
					}
					continue
				}
				if s := sampler.at("server " + m); id == "" || s["jsonrpc.request.id"] != id {
					t.Errorf("%s: jsonrpc.request.id at span start: server's CLIENT span %q, client's SERVER span %q", m, id, s["jsonrpc.request.id"])
				}
				if other, dup := seen[id]; dup && id != "" {
					t.Errorf("%s and %s both started with id %q", other, m, id)
				}
				seen[id] = m
			}
		})
	}
}
