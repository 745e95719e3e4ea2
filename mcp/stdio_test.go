package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary act as a stdio MCP server, so that
// CommandTransport can be tested against a real child process.
func TestMain(m *testing.M) {
	switch os.Getenv("MCP_TEST_SERVER") {
	case "":
		os.Exit(m.Run())
	case "chatty":
		// Writes far more to stderr than any pipe buffer holds before
		// serving: a client that did not drain stderr would deadlock.
		for i := range 5000 {
			fmt.Fprintf(os.Stderr, "log line %d: %s\n", i, strings.Repeat("x", 100))
		}
		fallthrough
	case "stdio":
		server := NewServer("child", "v1", nil)
		server.AddTools(echoTool())
		if err := server.Run(context.Background(), NewStdIOTransport()); err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "hangup-exit", "hangup-close":
		serveHangingUp(strings.TrimPrefix(os.Getenv("MCP_TEST_SERVER"), "hangup-")) // client_hangup_test.go
	case "bad-reply":
		serveBadReply(os.Getenv("MCP_TEST_REPLY")) // unreadable_response_test.go
	case "stubborn":
		// Ignores its input closing and SIGTERM: only SIGKILL stops it.
		signalIgnoreTerm()
		// Tells the parent SIGTERM is ignored from now on (see
		// connectStubborn).
		fmt.Println(`{"jsonrpc":"2.0","method":"stubborn/ready"}`)
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
	}
}

func childCommand(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MCP_TEST_SERVER="+mode)
	return cmd
}

func TestCommandTransport(t *testing.T) {
	for _, mode := range []string{"stdio", "chatty"} {
		t.Run(mode, func(t *testing.T) {
			cmd := childCommand(mode)
			var stderr strings.Builder
			cmd.Stderr = &lockedWriter{w: &stderr}
			cs, err := NewClient("c", "v1", nil).Connect(context.Background(), NewCommandTransport(cmd, nil))
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "over a pipe"}, nil)
			if err != nil || res.Content[0].Text != "over a pipe" {
				t.Fatalf("echo = %+v, %v", res, err)
			}
			// Closing the client closes the child's stdin; the server exits 0.
			if err := cs.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
				t.Fatalf("child exit state %v, want exit 0", cmd.ProcessState)
			}
		})
	}
}

// connectStubborn connects to a "stubborn" child and waits until it says
// it ignores SIGTERM: closing earlier would stop it with SIGTERM alone on
// a busy machine.
func connectStubborn(t *testing.T, ct *CommandTransport) Connection {
	t.Helper()
	conn, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Read(ctx); err != nil {
		t.Fatalf("waiting for the child to ignore SIGTERM: %v", err)
	}
	return conn
}

func TestCommandTransportKillsStubbornServer(t *testing.T) {
	ct := NewCommandTransport(childCommand("stubborn"), &CommandTransportOptions{TerminateDuration: 100 * time.Millisecond})
	conn := connectStubborn(t, ct)
	start := time.Now()
	err := conn.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("Close = %v, want an error saying the process was killed", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v", d)
	}
}

// TestBadInputOverStdioFraming sends what a broken or hostile client might
// and checks each answer; the connection must survive all of it.
func TestBadInputOverStdioFraming(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := server.Connect(context.Background(), NewIOTransport(struct {
		io.Reader
		io.Writer
		io.Closer
	}{inR, outW, inR}))
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	defer inW.Close()
	out := bufio.NewReader(outR)
	send := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(got)
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	tests := []struct{ name, send, want string }{
		{"invalid JSON", `{"jsonrpc":"2.0",`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`},
		{"not a request", `{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,`},
		{"unknown method", `{"jsonrpc":"2.0","id":2,"method":"tools/dance","params":{` + meta + `}}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,`},
		{"wrong params", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5,` + meta + `}}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,`},
		{"too deep", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"a":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: json nesting too deep`},
		{"duplicate key", `{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"tools/call"}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,`},
		{"batch outside 2025-03-26", `[{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{` + meta + `}}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches are not supported"}}`},
		{"still serving", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ok"},` + meta + `}}`, `{"jsonrpc":"2.0","id":7,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"v1"}},"resultType":"complete","content":[{"type":"text","text":"ok"}]}}`},
	}
	for _, tt := range tests {
		if got := send(tt.send); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant prefix %s", tt.name, got, tt.want)
		}
	}
	// An oversized line is refused and the connection survives.
	huge := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"s":"` + strings.Repeat("a", 5<<20) + `"}}`
	if got := send(huge); !strings.Contains(got, "message too large") {
		t.Errorf("oversized line: %.200s", got)
	}
	if got := send(tests[len(tests)-1].send); !strings.HasPrefix(got, tests[len(tests)-1].want) {
		t.Errorf("after the oversized line: %s", got)
	}
}

func TestBatchesOnlyIn20250326(t *testing.T) {
	for _, tt := range []struct {
		version string
		allowed bool
	}{{Version20250326, true}, {Version20250618, false}} {
		t.Run(tt.version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.AddTools(echoTool())
			ct, st := NewInMemoryTransports()
			ss, _ := server.Connect(context.Background(), st)
			defer ss.Close()
			conn, _ := ct.Connect(context.Background())
			ctx := context.Background()
			init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, tt.version)
			for _, line := range []string{init, `{"jsonrpc":"2.0","method":"notifications/initialized"}`} {
				msg, err := DecodeMessage([]byte(line))
				if err != nil {
					t.Fatal(err)
				}
				conn.Write(ctx, msg)
			}
			conn.Read(ctx) // initialize result
			batch, _ := DecodeMessage([]byte(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`))
			conn.Write(ctx, batch)
			reply, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := EncodeMessage(reply)
			if got := strings.HasPrefix(string(b), `[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{"tools":[`); got != tt.allowed {
				t.Fatalf("batch answer %s (allowed=%v)", b, tt.allowed)
			}
		})
	}
}

func TestServerCancelsItsRequestToTheClient(t *testing.T) {
	handlerCtx := make(chan error, 1)
	entered := make(chan struct{})
	server := NewServer("s", "v1", nil)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "sample", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			ctx, cancel := context.WithCancel(ctx)
			go func() { <-entered; cancel() }()
			_, err := ss.CreateMessage(ctx, &CreateMessageParams{MaxTokens: 1, Messages: []*SamplingMessage{{Role: "user", Content: []*Content{NewTextContent("hi")}}}})
			if !errors.Is(err, context.Canceled) {
				return nil, fmt.Errorf("CreateMessage returned %v, want context.Canceled", err)
			}
			return &CallToolResult{Content: []*Content{NewTextContent("cancelled")}}, nil
		},
	})
	cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: Version20251125, CreateMessageHandler: func(ctx context.Context, cs *ClientSession, p *CreateMessageParams) (*CreateMessageResult, error) {
		close(entered)
		<-ctx.Done()
		handlerCtx <- ctx.Err()
		return nil, ctx.Err()
	}})
	res, err := cs.CallTool(context.Background(), "sample", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	select {
	case err := <-handlerCtx:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("client handler context: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the client's handler was not cancelled by notifications/cancelled")
	}
}
