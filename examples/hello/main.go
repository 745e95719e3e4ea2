// Command hello is the greeter MCP server: one tool, "greet", that answers
// "Hi <name>". It serves MCP over stdin and stdout, and exits 0 when its
// input closes.
//
//	go run ./examples/hello
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.Parse()
	if *httpAddr != "" {
		log.Fatal("hello: -http is not available yet")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newServer().Run(ctx, mcp.NewStdIOTransport()); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

func newServer() *mcp.Server {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{
			Name:        "greet",
			Description: "say hi",
			InputSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"name": map[string]any{"type": "string", "description": "who to greet"}},
				"required":   []string{"name"},
			},
		},
		Handler: greet,
	})
	return server
}

func greet(ctx context.Context, ss *mcp.ServerSession, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var args struct {
		Name string `json:"name"`
	}
	raw, _ := params.Arguments.(json.RawMessage)
	if err := json.Unmarshal(raw, &args); err != nil || args.Name == "" {
		return nil, errors.New(`argument "name" must be a non-empty string`)
	}
	return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(fmt.Sprintf("Hi %s", args.Name))}}, nil
}
