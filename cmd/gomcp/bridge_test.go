package main

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestBridgeLegacyStream subscribes to a resource through the bridge in
// the handshake era: the updates come on the server's GET stream, which
// the bridge opens and forwards.
func TestBridgeLegacyStream(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's periodic update")
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	env, _, errw := testEnv(t, "", nil)
	env.stdin, env.stdout = inR, outW
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, []string{"bridge", everythingURL}) }()
	updated := make(chan string, 1)
	cs, err := mcp.NewClient("test", "1", &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20251125,
		ResourceUpdatedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ResourceUpdatedParams) {
			select {
			case updated <- p.URI:
			default:
			}
		},
	}).Connect(ctx, mcp.NewIOTransport(struct {
		io.Reader
		io.Writer
		io.Closer
	}{outR, inW, inW}))
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, errw.String())
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "test://watched-resource" {
			t.Fatalf("update of %q", uri)
		}
	case <-ctx.Done():
		t.Fatal("no resource update came through the bridge")
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("bridge exited %d: %s", code, errw.String())
	}
	outW.Close()
	cs.Close()
}

// TestReadSSE is the SSE framing table of the bridge's GET stream reader.
func TestReadSSE(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"data: a\n\n", []string{"a"}},
		{"data:a\ndata: b\n\n", []string{"a\nb"}},
		{": comment\nevent: message\nid: 1\ndata: x\n\ndata: y\n\n", []string{"x", "y"}},
		{"retry: 10\n\n\n", nil},
		{"data: unterminated", nil},
	}
	for _, tt := range tests {
		var got []string
		if err := readSSE(strings.NewReader(tt.in), func(d []byte) error { got = append(got, string(d)); return nil }); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("readSSE(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	stop := errors.New("stop")
	if err := readSSE(strings.NewReader("data: a\n\ndata: b\n\n"), func([]byte) error { return stop }); err != stop {
		t.Fatalf("a failing dispatch: %v", err)
	}
}

func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n: c\ndata:\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = readSSE(strings.NewReader(string(data)), func(d []byte) error {
			_, _ = mcp.DecodeMessage(d)
			return nil
		})
	})
}
