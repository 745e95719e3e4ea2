package main

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/gomcp/sdk/mcp"
)

// docs:region client
// callGreet starts the server command over stdio, lists its tools and calls
// greet. Connect starts the process and picks the protocol version.
func callGreet(ctx context.Context, command string, args ...string) (string, error) {
	client := mcp.NewClient("client", "v1.0.0", nil)
	session, err := client.Connect(ctx, mcp.NewCommandTransport(exec.Command(command, args...), nil))
	if err != nil {
		return "", err
	}
	defer session.Close()
	for tool, err := range session.Tools(ctx, nil) { // every page
		if err != nil {
			return "", err
		}
		fmt.Println(tool.Name)
	}
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("greet failed: %s", res.Content[0].Text)
	}
	return res.Content[0].Text, nil
}

// docs:endregion
