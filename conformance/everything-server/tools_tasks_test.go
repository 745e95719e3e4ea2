package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestTaskTools calls the tasks-* fixtures from a 2026-07-28 client that
// declares the tasks extension: the calls become tasks, which the client
// follows to their results, answering elicitations with {name: Alice,
// confirm: true}.
func TestTaskTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient("test-client", "1.0.0", &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcp.TasksExtension: map[string]any{}}},
		ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"name": "Alice", "confirm": true}}, nil
		},
	})
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.ServerCapabilities().Extensions[mcp.TasksExtension] == nil {
		t.Fatal("the server does not declare the tasks extension")
	}
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"greet", map[string]any{"name": "World"}, "Hello, World!", false},
		{"slow_compute", map[string]any{"seconds": 0, "label": "now"}, `computed "now" in 0s`, false},
		{"confirm_delete", map[string]any{"filename": "a.txt"}, "deleted a.txt", false},
		{"multi_input", nil, "name=Alice; confirmed=true", false},
		{"test_tool_with_task", nil, "Hello, Alice!", false},
		{"failing_job", nil, "the job failed", true},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(ctx, tt.tool, tt.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := text(res.Content); got != tt.want || res.IsError != tt.isError {
				t.Fatalf("%s: %q (isError %v), want %q", tt.tool, got, res.IsError, tt.want)
			}
		})
	}
	_, err = cs.CallTool(ctx, "protocol_error_job", nil, nil)
	var werr *mcp.JSONRPCError
	if !errors.As(err, &werr) || werr.Code != mcp.CodeInternalError || !strings.Contains(werr.Message, "deliberate failure") {
		t.Fatalf("protocol_error_job: %v", err)
	}
}
