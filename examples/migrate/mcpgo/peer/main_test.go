package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/mcptest"
	"github.com/mark3labs/mcp-go/server"
)

// docs:region testing
func TestGreet(t *testing.T) {
	srv, err := mcptest.NewServer(t, server.ServerTool{
		Tool: mcp.NewTool("greet",
			mcp.WithString("name", mcp.Required())),
		Handler: greet,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var req mcp.CallToolRequest
	req.Params.Name = "greet"
	req.Params.Arguments = map[string]any{"name": "you"}
	res, err := srv.Client().CallTool(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(mcp.TextContent).Text; got != "Hi you" {
		t.Errorf("got %q", got)
	}
}

// docs:endregion

// The whole peer server answers in process, so the guide's snippets are
// known to work.
func TestServer(t *testing.T) {
	s := newServer()
	ctx := context.Background()
	res := s.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if _, ok := res.(mcp.JSONRPCResponse); !ok {
		t.Fatalf("initialize: %#v", res)
	}
}

// TestMain serves the peer server over stdio when the test binary is
// started as a server by TestClient.
func TestMain(m *testing.M) {
	if os.Getenv("MIGRATE_SERVE") == "1" {
		if err := server.ServeStdio(newServer()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestClient(t *testing.T) {
	t.Setenv("MIGRATE_SERVE", "1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := callGreet(ctx, os.Args[0])
	if err != nil || got != "Hi you" {
		t.Errorf("callGreet = %q, %v", got, err)
	}
}
