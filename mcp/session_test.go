package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// echoTool answers with its "text" argument; "slow" waits for its context.
func echoTool() *ServerTool {
	return &ServerTool{
		Tool: &Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			var args struct {
				Text string `json:"text"`
			}
			if raw, ok := p.Arguments.(json.RawMessage); ok {
				if err := json.Unmarshal(raw, &args); err != nil {
					return nil, err
				}
			}
			if args.Text == "fail" {
				return nil, errors.New("asked to fail")
			}
			return &CallToolResult{Content: []*Content{NewTextContent(args.Text)}}, nil
		},
	}
}

func slowTool(started chan<- struct{}, cancelled chan<- error) *ServerTool {
	return &ServerTool{
		Tool: &Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			for i := 1; i <= 3; i++ {
				ss.NotifyProgress(ctx, &ProgressNotificationParams{ProgressToken: p.Meta.ProgressToken, Progress: float64(i), Total: 3})
			}
			started <- struct{}{}
			<-ctx.Done()
			cancelled <- ctx.Err()
			return nil, ctx.Err()
		},
	}
}

// connect runs a server and a client over in-memory transports.
func connect(t testing.TB, server *Server, copts *ClientOptions) (*ClientSession, *ServerSession) {
	t.Helper()
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("test-client", "v1", copts).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, ss
}

// eras runs f once per protocol era.
func eras(t *testing.T, f func(t *testing.T, version string)) {
	for _, v := range []string{Version20260728, Version20251125, Version20250618, Version20250326, Version20241105} {
		t.Run(v, func(t *testing.T) { f(t, v) })
	}
}

func TestToolsInBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(echoTool())
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		if got := cs.ProtocolVersion(); got != version {
			t.Fatalf("protocol %s, want %s", got, version)
		}
		if cs.ServerInfo().Name != "s" {
			t.Errorf("server info %+v", cs.ServerInfo())
		}
		var names []string
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		if fmt.Sprint(names) != "[echo]" {
			t.Fatalf("tools %v", names)
		}
		res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, nil)
		if err != nil || res.IsError || res.Content[0].Text != "hi" {
			t.Fatalf("echo = %+v, %v", res, err)
		}
		wantRT := ""
		if version == Version20260728 {
			wantRT = "complete"
		}
		if res.ResultType != wantRT {
			t.Errorf("resultType %q, want %q", res.ResultType, wantRT)
		}
		res, err = cs.CallTool(context.Background(), "echo", map[string]any{"text": "fail"}, nil)
		if err != nil || !res.IsError || res.Content[0].Text != "asked to fail" {
			t.Fatalf("failing tool = %+v, %v; want a result with isError", res, err)
		}
		_, err = cs.CallTool(context.Background(), "nosuch", nil, nil)
		var werr *JSONRPCError
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
			t.Fatalf("unknown tool: %v, want -32602", err)
		}
		if err := cs.Ping(context.Background(), nil); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})
}

func TestDefaultClientPrefersModernWithoutFailedProbe(t *testing.T) {
	server := NewServer("s", "v1", nil)
	var methods []string
	var mu sync.Mutex
	server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			mu.Lock()
			methods = append(methods, method)
			mu.Unlock()
			return next(ctx, ss, method, params)
		}
	})
	cs, _ := connect(t, server, nil)
	if cs.ProtocolVersion() != LatestVersion {
		t.Fatalf("default client speaks %s, want %s", cs.ProtocolVersion(), LatestVersion)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(methods) != "[server/discover]" {
		t.Fatalf("connect sent %v, want one server/discover", methods)
	}
}

func TestVersionNegotiationMatrix(t *testing.T) {
	legacy := []string{Version20251125, Version20250618, Version20250326, Version20241105}
	serverSets := map[string][]string{
		"all":         SupportedVersions(),
		"legacy only": legacy,
		"modern only": {Version20260728},
		"2025-06-18":  {Version20250618},
	}
	for setName, set := range serverSets {
		for _, clientVersion := range append([]string{""}, SupportedVersions()...) {
			t.Run(setName+"/client="+clientVersion, func(t *testing.T) {
				server := NewServer("s", "v1", &ServerOptions{ProtocolVersions: set})
				ct, st := NewInMemoryTransports()
				ss, _ := server.Connect(context.Background(), st)
				defer ss.Close()
				cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: clientVersion, ProbeTimeout: time.Second}).Connect(context.Background(), ct)
				want := clientVersion
				if want == "" {
					want = set[0] // newest the server has
				}
				supported := false
				for _, v := range set {
					supported = supported || v == want
				}
				if !supported {
					if err == nil {
						t.Fatalf("connected at %s; server supports only %v", cs.ProtocolVersion(), set)
					}
					return
				}
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer cs.Close()
				if cs.ProtocolVersion() != want {
					t.Fatalf("negotiated %s, want %s", cs.ProtocolVersion(), want)
				}
				if err := cs.Ping(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func TestCancellationAndProgress(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		started := make(chan struct{}, 1)
		cancelled := make(chan error, 1)
		server := NewServer("s", "v1", nil)
		server.AddTools(slowTool(started, cancelled))
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		ctx, cancel := context.WithCancel(context.Background())
		var progress []float64
		var mu sync.Mutex
		errc := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, "slow", nil, &CallToolOptions{ProgressHandler: func(_ context.Context, p *ProgressNotificationParams) {
				mu.Lock()
				progress = append(progress, p.Progress)
				mu.Unlock()
			}})
			errc <- err
		}()
		<-started
		waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(progress) == 3 })
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call returned %v", err)
		}
		select {
		case err := <-cancelled:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("handler context: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("handler context was not cancelled by notifications/cancelled")
		}
		mu.Lock()
		defer mu.Unlock()
		if fmt.Sprint(progress) != "[1 2 3]" {
			t.Errorf("progress %v, want [1 2 3]", progress)
		}
	})
}

func TestConcurrentCallsOnOneSession(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	cs, _ := connect(t, server, nil)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprint("call ", i)
			res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": text}, nil)
			if err != nil || res.Content[0].Text != text {
				t.Errorf("call %d: %+v, %v", i, res, err)
			}
		}()
	}
	wg.Wait()
}

func TestKeepAliveFailureClosesSession(t *testing.T) {
	server := NewServer("s", "v1", &ServerOptions{KeepAlive: 20 * time.Millisecond})
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125})
	// The client stops answering pings: its middleware blocks them.
	block := make(chan struct{})
	defer close(block)
	client.AddMiddleware(func(next MethodHandler[ClientSession]) MethodHandler[ClientSession] {
		return func(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
			if method == MethodPing {
				select {
				case <-block:
				case <-ctx.Done():
				}
				return nil, errors.New("unreachable")
			}
			return next(ctx, cs, method, params)
		}
	})
	cs, err := client.Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	done := make(chan struct{})
	go func() { ss.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("server session still open although the client stopped answering pings")
	}
}

func TestRequestsBeforeInitialize(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	ct, st := NewInMemoryTransports()
	ss, _ := server.Connect(context.Background(), st)
	defer ss.Close()
	conn, _ := ct.Connect(context.Background())
	ctx := context.Background()
	req := &JSONRPCRequest{ID: jsonrpcID(1), Method: MethodListTools, Params: json.RawMessage(`{}`)}
	if err := conn.Write(ctx, req); err != nil {
		t.Fatal(err)
	}
	msg, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resp := msg.(*JSONRPCResponse)
	// A request before initialize gets the handshake's error, which also
	// names the per-request _meta of 2026-07-28.
	if resp.Error == nil || resp.Error.Code != CodeInvalidRequest || !strings.Contains(resp.Error.Message, "not initialized") || !strings.Contains(resp.Error.Message, "_meta") {
		t.Fatalf("tools/list before initialize: %+v", resp.Error)
	}
}

func TestNoGoroutineLeftAfterClosingManySessions(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	before := runtime.NumGoroutine()
	client := NewClient("c", "v1", nil)
	for range 1000 {
		ct, st := NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(context.Background(), ct)
		if err != nil {
			t.Fatal(err)
		}
		cs.Close()
		ss.Wait()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after closing 1000 sessions", before, runtime.NumGoroutine())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(slicesOf(server.Sessions())); n != 0 {
		t.Errorf("server still lists %d sessions", n)
	}
}
