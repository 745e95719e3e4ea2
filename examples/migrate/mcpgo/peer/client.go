package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// docs:region client
// callGreet starts the server command over stdio, lists its tools and calls
// greet.
func callGreet(ctx context.Context, command string, args ...string) (string, error) {
	c, err := client.NewStdioMCPClient(command, nil, args...)
	if err != nil {
		return "", err
	}
	defer c.Close()
	var initReq mcp.InitializeRequest
	initReq.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	initReq.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v1.0.0"}
	if _, err := c.Initialize(ctx, initReq); err != nil {
		return "", err
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return "", err
	}
	for _, tool := range tools.Tools {
		fmt.Println(tool.Name)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "greet"
	req.Params.Arguments = map[string]any{"name": "you"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("greet failed: %v", res.Content)
	}
	return res.Content[0].(mcp.TextContent).Text, nil
}

// docs:endregion
