// Command mcpgo is the greeter written with mcp-go, as its README shows:
// one tool, "greet", served over stdio.
package main

import (
	"context"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func greet(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText("Hi " + name), nil
}

func main() {
	s := server.NewMCPServer("greeter", "v1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("greet", mcp.WithDescription("say hi"),
		mcp.WithString("name", mcp.Required(), mcp.Description("who to greet"))), greet)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
