package mcp

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A LoggingTransport logs every message, and a connection that ends
// normally (the client closes its session, or the server closes its end)
// leaves no error line in the log.
func TestLoggingTransportNormalClose(t *testing.T) {
	for _, closer := range []string{"client", "server"} {
		t.Run(closer, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			ct, st := NewInMemoryTransports()
			ss, err := server.Connect(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			log := &lockedWriter{w: &buf}
			cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125}).Connect(context.Background(), NewLoggingTransport(ct, log))
			if err != nil {
				t.Fatal(err)
			}
			if err := cs.Ping(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if closer == "client" {
				cs.Close()
				ss.Wait()
			} else {
				ss.Close()
				cs.Wait()
			}
			log.mu.Lock()
			defer log.mu.Unlock()
			out := buf.String()
			if !strings.Contains(out, `write: {"jsonrpc":"2.0","id":2,"method":"ping"`) || !strings.Contains(out, `read: {"jsonrpc":"2.0","id":2,"result":{}}`) {
				t.Errorf("the log lacks the ping and its answer:\n%s", out)
			}
			if strings.Contains(out, "error:") {
				t.Errorf("a normal close logged an error:\n%s", out)
			}
		})
	}
}
