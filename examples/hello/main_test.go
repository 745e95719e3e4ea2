package main

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestGreet(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Content[0].Text != "Hi you" {
		t.Errorf("greet = %q (isError %v)", res.Content[0].Text, res.IsError)
	}
	// The argument is required.
	res, err = cs.CallTool(ctx, "greet", nil, nil)
	if err != nil || !res.IsError {
		t.Errorf("greet without name: %v, isError %v", err, res != nil && res.IsError)
	}
}
