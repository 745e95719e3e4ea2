package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// panickyServer has a handler of every kind that panics.
func panickyServer(log *syncBuffer) *Server {
	boom := func() { panic("boom") }
	s := NewServer("s", "v1", &ServerOptions{
		Logger:             slog.New(slog.NewTextHandler(log, nil)),
		SubscribeHandler:   func(context.Context, *ServerSession, *SubscribeParams) error { boom(); return nil },
		UnsubscribeHandler: func(context.Context, *ServerSession, *UnsubscribeParams) error { return nil },
	})
	s.AddTools(echoTool(), &ServerTool{
		Tool: &Tool{Name: "boom", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			boom()
			return nil, nil
		},
	}, &ServerTool{
		// ask asks the client with the method named in its arguments, whose
		// client-side handler panics.
		Tool: &Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			var err error
			raw, _ := p.Arguments.(json.RawMessage)
			switch {
			case bytes.Contains(raw, []byte("sampling")):
				_, err = ss.CreateMessage(ctx, &CreateMessageParams{MaxTokens: 1})
			case bytes.Contains(raw, []byte("elicitation")):
				_, err = ss.Elicit(ctx, &ElicitParams{Message: "?", RequestedSchema: &ElicitationSchema{Type: "object"}})
			default:
				_, err = ss.ListRoots(ctx, nil)
			}
			return nil, err
		},
	})
	s.AddPrompts(&ServerPrompt{
		Prompt: &Prompt{Name: "boom", Arguments: []*PromptArgument{{Name: "a"}}},
		Handler: func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) {
			boom()
			return nil, nil
		},
		Completers: map[string]Completer{"a": func(context.Context, string, map[string]string) ([]string, error) { boom(); return nil, nil }},
	})
	s.AddResources(&ServerResource{
		Resource: &Resource{URI: "file:///boom", Name: "boom"},
		Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
			boom()
			return nil, nil
		},
	})
	s.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if method == MethodListResourceTemplates {
				boom()
			}
			return next(ctx, ss, method, params)
		}
	})
	return s
}

// connectOver connects client to server over the named transport.
func connectOver(t *testing.T, transport string, server *Server, client *Client) *ClientSession {
	t.Helper()
	ctx := context.Background()
	var ct Transport
	switch transport {
	case "inmemory":
		c, s := NewInMemoryTransports()
		ss, err := server.Connect(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = c
	case "pipes": // stdio's framing over a pair of pipes
		c, s := net.Pipe()
		ss, err := server.Connect(ctx, NewIOTransport(s))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		ct = NewIOTransport(c)
	case "http":
		ts := httptest.NewServer(NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil))
		t.Cleanup(ts.Close)
		ct = NewStreamableClientTransport(ts.URL, nil)
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestPanicRecoveryEveryKindEveryTransport(t *testing.T) {
	for _, transport := range []string{"inmemory", "pipes", "http"} {
		for _, version := range []string{Version20251125, Version20260728} {
			t.Run(transport+"/"+version, func(t *testing.T) {
				testPanicRecovery(t, transport, version)
			})
		}
	}
}

func testPanicRecovery(t *testing.T, transport, version string) {
	var serverLog, clientLog syncBuffer
	server := panickyServer(&serverLog)
	boom := func() { panic("client boom") }
	client := NewClient("c", "v1", &ClientOptions{
		ProtocolVersion: version,
		Logger:          slog.New(slog.NewTextHandler(&clientLog, nil)),
		CreateMessageHandler: func(context.Context, *ClientSession, *CreateMessageParams) (*CreateMessageResult, error) {
			boom()
			return nil, nil
		},
		ElicitationHandler: func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error) { boom(); return nil, nil },
	})
	client.AddRoots(&Root{URI: "file:///r"})
	client.AddMiddleware(func(next MethodHandler[ClientSession]) MethodHandler[ClientSession] {
		return func(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
			if method == MethodListRoots {
				boom()
			}
			return next(ctx, cs, method, params)
		}
	})
	cs := connectOver(t, transport, server, client)
	ctx := context.Background()

	res, err := cs.CallTool(ctx, "boom", map[string]any{}, nil)
	if err != nil || !res.IsError {
		t.Errorf("panicking tool: %v, %+v; want a result with IsError", err, res)
	}
	serverCalls := []struct {
		kind string
		call func() error
	}{
		{"prompt", func() error { _, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "boom"}); return err }},
		{"resource", func() error { _, err := cs.ReadResource(ctx, &ReadResourceParams{URI: "file:///boom"}); return err }},
		{"completion", func() error {
			_, err := cs.Complete(ctx, &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "boom"}, Argument: CompleteArgument{Name: "a"}})
			return err
		}},
		{"middleware", func() error { _, err := cs.ListResourceTemplates(ctx, nil); return err }},
	}
	if !isModernVersion(version) {
		serverCalls = append(serverCalls, struct {
			kind string
			call func() error
		}{"subscribe", func() error { return cs.Subscribe(ctx, &SubscribeParams{URI: "file:///boom"}) }})
	}
	for _, c := range serverCalls {
		var werr *JSONRPCError
		if err := c.call(); !errors.As(err, &werr) || werr.Code != CodeInternalError {
			t.Errorf("panicking %s handler: %v; want a %d error", c.kind, err, CodeInternalError)
		}
	}
	for _, m := range []string{"sampling", "elicitation", "roots"} {
		_, err := cs.CallTool(ctx, "ask", map[string]any{"m": m}, nil)
		if err == nil || !strings.Contains(err.Error(), "internal error") {
			t.Errorf("panicking client %s handler: %v; want an internal error", m, err)
		}
	}
	// The session and the process go on.
	if res, err := cs.CallTool(ctx, "echo", map[string]any{"text": "still here"}, nil); err != nil || res.IsError {
		t.Fatalf("after the panics: %v %+v", err, res)
	}
	if got, want := strings.Count(serverLog.String(), "recovered panic"), 1+len(serverCalls); got != want {
		t.Errorf("server logged %d recovered panics, want %d:\n%s", got, want, serverLog.String())
	}
	if !strings.Contains(serverLog.String(), "stack=") {
		t.Errorf("server log has no stack:\n%s", serverLog.String())
	}
	if got := strings.Count(clientLog.String(), "recovered panic"); got != 3 {
		t.Errorf("client logged %d recovered panics, want 3:\n%s", got, clientLog.String())
	}
}

func TestPanicRecoveryCanBeTurnedOff(t *testing.T) {
	server := NewServer("s", "v1", &ServerOptions{DisablePanicRecovery: true})
	server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (v any, err error) {
			defer func() {
				if r := recover(); r != nil {
					v, err = nil, newError(CodeInvalidRequest, "outer middleware saw the panic")
				}
			}()
			return next(ctx, ss, method, params)
		}
	})
	server.AddPrompts(&ServerPrompt{
		Prompt:  &Prompt{Name: "boom"},
		Handler: func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) { panic("boom") },
	})
	cs, _ := connect(t, server, nil)
	// With recovery off the panic reaches the caller's own recover (here
	// the outermost middleware); without one it would crash the program.
	_, err := cs.GetPrompt(context.Background(), &GetPromptParams{Name: "boom"})
	var werr *JSONRPCError
	if !errors.As(err, &werr) || werr.Code != CodeInvalidRequest {
		t.Fatalf("got %v; want the outer middleware's error", err)
	}
}
