package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// A server whose server/discover lists only handshake versions (as the
// go-sdk's stateful HTTP handler does) is used through initialize.
func TestClientFallsBackWhenDiscoverListsOnlyLegacyVersions(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			res, err := next(ctx, ss, method, params)
			if d, ok := res.(*DiscoverResult); ok {
				d.SupportedVersions = []string{Version20251125, Version20250618}
			}
			return res, err
		}
	})
	cs, _ := connect(t, server, nil)
	if cs.ProtocolVersion() != Version20251125 {
		t.Fatalf("negotiated %s, want the fallback to 2025-11-25", cs.ProtocolVersion())
	}
	if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "ok"}, nil); err != nil {
		t.Fatal(err)
	}
}

// When a stdio client closes its input, an open subscriptions/listen ends
// at once with its graceful result, not after a timeout with an error.
func TestListenEndsGracefullyAtEndOfInput(t *testing.T) {
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
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}},"notifications":{"toolsListChanged":true}}}`+"\n")
	if ack := <-lines; !strings.Contains(ack, "notifications/subscriptions/acknowledged") {
		t.Fatalf("first message %s, want the acknowledgment", ack)
	}
	start := time.Now()
	inW.Close()
	select {
	case got := <-lines:
		want := `{"jsonrpc":"2.0","id":7,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"v1"},"io.modelcontextprotocol/subscriptionId":7},"resultType":"complete"}}`
		if got != want {
			t.Fatalf("at end of input got\n%s\nwant\n%s", got, want)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no graceful result within 3s of end of input")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("graceful end took %v", d)
	}
	ss.Wait()
	outW.Close()
}
