package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// docs:region connect
// connect returns a client session connected, in memory, to a fresh
// server. Closing it at the end of the test ends the server session too.
func connect(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, serverTransport); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", opts).Connect(ctx, clientTransport)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// docs:endregion

// docs:region table
func TestDivide(t *testing.T) {
	cs := connect(t, nil)
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"divides", map[string]any{"a": 6, "b": 4}, `{"result":1.5}`, false},
		{"by zero is a tool error", map[string]any{"a": 1, "b": 0}, "division by zero", true},
		{"missing argument is a tool error", map[string]any{"a": 1}, `invalid arguments for tool "divide": missing required property "b"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), "divide", tt.args, nil)
			if err != nil {
				t.Fatal(err) // a protocol error, not a tool error
			}
			if res.IsError != tt.isError || res.Content[0].Text != tt.want {
				t.Errorf("got %q (isError %v), want %q (isError %v)", res.Content[0].Text, res.IsError, tt.want, tt.isError)
			}
		})
	}
}

// docs:endregion

// docs:region golden
// TestGolden compares the exact messages of a session with a transcript in
// testdata. Pin the protocol version so the transcript is stable.
func TestGolden(t *testing.T) {
	ctx := context.Background()
	var wire bytes.Buffer
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, serverTransport); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125})
	cs, err := client.Connect(ctx, mcp.NewLoggingTransport(clientTransport, &wire))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, "divide", map[string]any{"a": 1, "b": 8}, nil); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "divide.golden")
	if *update {
		if err := os.WriteFile(golden, wire.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wire.Bytes(), want) {
		t.Errorf("transcript differs from %s (go test -update rewrites it):\n%s", golden, wire.Bytes())
	}
}

// docs:endregion
