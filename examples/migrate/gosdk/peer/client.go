package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// docs:region client
// callGreet starts the server command over stdio, lists its tools and calls
// greet.
func callGreet(ctx context.Context, command string, args ...string) (string, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(command, args...)}, nil)
	if err != nil {
		return "", err
	}
	defer session.Close()
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return "", err
		}
		fmt.Println(tool.Name)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{
		Name:      "greet",
		Arguments: map[string]any{"name": "you"},
	})
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("greet failed: %v", res.Content)
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// docs:endregion
