package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A sent is what sending middleware saw of one outgoing message.
type sent struct {
	method  string
	id      any
	params  string // the params' Go type
	result  string // the result's Go type, "" for none
	err     bool
	network string
}

// recorder is sending or receiving middleware that records what it sees.
type recorder[S ClientSession | ServerSession] struct {
	mu   sync.Mutex
	seen []sent
}

func (r *recorder[S]) middleware(next MethodHandler[S]) MethodHandler[S] {
	return func(ctx context.Context, s *S, method string, params any) (any, error) {
		res, err := next(ctx, s, method, params)
		info, ok := RequestInfoFromContext(ctx)
		if !ok || info.Method != method {
			panic(fmt.Sprintf("RequestInfoFromContext in middleware of %s: %+v, %v", method, info, ok))
		}
		e := sent{method: method, id: info.ID, params: fmt.Sprintf("%T", params), err: err != nil, network: info.Transport.Network}
		if res != nil {
			e.result = fmt.Sprintf("%T", res)
		}
		r.mu.Lock()
		r.seen = append(r.seen, e)
		r.mu.Unlock()
		return res, err
	}
}

func (r *recorder[S]) find(method string) (sent, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.IndexFunc(r.seen, func(s sent) bool { return s.method == method })
	if i < 0 {
		return sent{}, false
	}
	return r.seen[i], true
}

func TestSendingMiddlewareSeesTypedMessagesBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(echoTool(), &ServerTool{
			Tool: &Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
			Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
				if _, err := ss.ListRoots(ctx, nil); err != nil {
					return nil, err
				}
				_ = ss.NotifyProgress(ctx, &ProgressNotificationParams{ProgressToken: "t", Progress: 1}) // the test checks what the middleware saw
				return &CallToolResult{Content: []*Content{NewTextContent("ok")}}, nil
			},
		})
		var serverSent, serverGot recorder[ServerSession]
		server.AddSendingMiddleware(serverSent.middleware)
		server.AddMiddleware(serverGot.middleware)
		// Sending middleware may set _meta; the server must see it.
		traced := make(chan string, 4)
		server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
			return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
				if p, ok := params.(*CallToolParams); ok && p.Name == "echo" {
					traced <- fmt.Sprint(p.Meta.Data["traceparent"])
				}
				return next(ctx, ss, method, params)
			}
		})
		client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
		client.AddRoots(&Root{URI: "file:///work"}) // the tool asks for them
		var clientSent recorder[ClientSession]
		client.AddSendingMiddleware(clientSent.middleware, func(next MethodHandler[ClientSession]) MethodHandler[ClientSession] {
			return func(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
				if p, ok := params.(*CallToolParams); ok {
					if p.Meta.Data == nil {
						p.Meta.Data = map[string]any{}
					}
					p.Meta.Data["traceparent"] = "00-trace"
				}
				return next(ctx, cs, method, params)
			}
		})
		ct, st := NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(context.Background(), ct)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { cs.Close(); ss.Wait() }()
		if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, nil); err != nil {
			t.Fatal(err)
		}
		if got := <-traced; got != "00-trace" {
			t.Errorf("server saw traceparent %q", got)
		}
		res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, &CallToolOptions{Meta: Meta{ProgressToken: "t"}})
		if err != nil || res.IsError {
			t.Fatalf("ask: %v %+v", err, res)
		}

		checkSendingMiddlewareSaw(t, version, &clientSent, &serverGot, &serverSent)
	})
}

// checkSendingMiddlewareSaw checks what the recorders of
// TestSendingMiddlewareSeesTypedMessagesBothEras saw: typed tools/call,
// roots/list and progress messages, with ids for requests only.
func checkSendingMiddlewareSaw(t *testing.T, version string, clientSent *recorder[ClientSession], serverGot, serverSent *recorder[ServerSession]) {
	t.Helper()
	call, ok := clientSent.find(MethodCallTool)
	if !ok || call.params != "*mcp.CallToolParams" || call.result != "*mcp.CallToolResult" || call.id == nil || call.network != NetworkInMemory {
		t.Errorf("client sending middleware saw tools/call as %+v (found %v)", call, ok)
	}
	got, ok := serverGot.find(MethodCallTool)
	if !ok || got.id == nil || got.network != NetworkInMemory {
		t.Errorf("server receiving middleware saw tools/call as %+v (found %v)", got, ok)
	}
	if _, ok := serverSent.find(MethodListRoots); !ok {
		t.Errorf("server sending middleware did not see roots/list: %+v", serverSent.seen)
	}
	if p, ok := serverSent.find(NotificationProgress); !ok || p.id != nil {
		t.Errorf("server sending middleware saw progress as %+v (found %v)", p, ok)
	}
	if !isModernVersion(version) {
		if n, ok := clientSent.find(NotificationInitialized); !ok || n.id != nil {
			t.Errorf("client sending middleware saw notifications/initialized as %+v (found %v)", n, ok)
		}
		if r, ok := serverSent.find(MethodListRoots); !ok || r.id == nil || r.result != "*mcp.ListRootsResult" {
			t.Errorf("server sending middleware saw roots/list as %+v", r)
		}
	}
}

func TestSessionObservers(t *testing.T) {
	server := NewServer("s", "v1", nil)
	client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125})
	type event struct {
		what string
		err  error
	}
	events := make(chan event, 8)
	server.AddSessionObserver(func(ss *ServerSession) func(error) {
		events <- event{what: "server start"}
		return func(err error) { events <- event{"server end", err} }
	})
	client.AddSessionObserver(func(cs *ClientSession) func(error) {
		events <- event{what: "client start " + cs.ProtocolVersion()}
		return func(err error) { events <- event{"client end", err} }
	})
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	if ss.ID() != "" || cs.ID() != "" {
		t.Errorf("in-memory session ids: %q %q", ss.ID(), cs.ID())
	}
	cs.Close()
	ss.Wait()
	waitUntil(t, func() bool { return len(events) == 4 })
	var got []string
	for range 4 {
		e := <-events
		if e.err != nil {
			t.Errorf("%s: %v", e.what, e.err)
		}
		got = append(got, e.what)
	}
	slices.Sort(got)
	want := []string{"client end", "client start " + Version20251125, "server end", "server start"}
	if !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestRequestInfoOverHTTP(t *testing.T) {
	for _, version := range []string{Version20251125, Version20260728} {
		t.Run(version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.AddTools(echoTool())
			seen := make(chan RequestInfo, 8)
			server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
				return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
					if method == MethodCallTool {
						info, _ := RequestInfoFromContext(ctx)
						seen <- info
					}
					return next(ctx, ss, method, params)
				}
			})
			client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
			cs := connectOver(t, "http", server, client)
			if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil); err != nil {
				t.Fatal(err)
			}
			info := <-seen
			if tr := info.Transport; tr.Network != NetworkTCP || tr.HTTPVersion != "1.1" || tr.RemoteAddr == "" || info.ID == nil {
				t.Errorf("server saw %+v", info)
			}
			if tr := cs.Transport(); tr.Network != NetworkTCP || tr.RemoteAddr == "" {
				t.Errorf("client transport %+v", tr)
			}
			if (cs.ID() != "") == isModernVersion(version) {
				t.Errorf("client session id %q at %s", cs.ID(), version)
			}
		})
	}
}

func TestSessionIDOverSSE(t *testing.T) {
	server, _, ts := newSSETest(t)
	ct, err := NewSSEClientTransport(ts.URL+"/sse", nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20241105}).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var ss *ServerSession
	waitUntil(t, func() bool {
		if s := slicesOf(server.Sessions()); len(s) == 1 {
			ss = s[0]
		}
		return ss != nil
	})
	if ss.ID() == "" || ss.Transport().Network != NetworkTCP || cs.Transport().RemoteAddr == "" {
		t.Errorf("SSE session: id %q, transport %+v, client transport %+v", ss.ID(), ss.Transport(), cs.Transport())
	}
}

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
