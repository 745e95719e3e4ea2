// Command gosdk is the greeter written with the official Go SDK, as its
// README shows: one tool, "greet", served over stdio.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func greet(ctx context.Context, req *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hi " + in.Name}}}, nil, nil
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "v1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "say hi"}, greet)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
