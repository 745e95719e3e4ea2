package serve

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// HTTP serves until its context is done, then shuts down and returns nil,
// even with a legacy session open.
func TestHTTPShutdown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	server := mcp.NewServer("test", "v1", nil)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- HTTP(ctx, addr, handler) }()
	var cs *mcp.ClientSession
	for range 100 {
		cs, err = mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}).
			Connect(context.Background(), mcp.NewStreamableClientTransport("http://"+addr+"/mcp", nil))
		if err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("HTTP = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("HTTP did not return after its context ended")
	}
	if n := handler.Stats().Sessions; n != 0 {
		t.Errorf("%d sessions left after shutdown", n)
	}
}
