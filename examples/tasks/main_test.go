package main

import (
	"context"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func connect(t *testing.T, server *mcp.Server, tasks bool) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	opts := &mcp.ClientOptions{}
	if tasks {
		// docs:region client
		opts = &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{
				Extensions: map[string]any{mcp.TasksExtension: map[string]any{}},
			},
		}
		// docs:endregion
	}
	cs, err := mcp.NewClient("test", "v1", opts).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// CallTool follows the task to its result; a client without the extension
// gets the same result from a plain call.
func TestCallTool(t *testing.T) {
	server := newServer(time.Millisecond, 5*time.Millisecond)
	for _, tasks := range []bool{true, false} {
		cs := connect(t, server, tasks)
		res, err := cs.CallTool(context.Background(), "build_report", map[string]any{"pages": 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Content[0].Text != "report of 3 pages" {
			t.Errorf("tasks %v: result %q", tasks, res.Content[0].Text)
		}
	}
}

// StartToolCall returns the task at once; the result can be awaited later.
func TestStartToolCall(t *testing.T) {
	cs := connect(t, newServer(20*time.Millisecond, 5*time.Millisecond), true)
	ctx := context.Background()
	// docs:region start
	_, task, err := cs.StartToolCall(ctx, "build_report", map[string]any{"pages": 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Keep task.TaskID: AwaitToolTask works from this or a later session.
	res, err := cs.AwaitToolTask(ctx, task.TaskID)
	// docs:endregion
	if err != nil {
		t.Fatal(err)
	}
	if task.Status != mcp.TaskStatusWorking || res.Content[0].Text != "report of 2 pages" {
		t.Errorf("task %+v, result %q", task, res.Content[0].Text)
	}
}

// Cancelling a task cancels the tool's context.
func TestCancelTask(t *testing.T) {
	cs := connect(t, newServer(time.Hour, 5*time.Millisecond), true)
	ctx := context.Background()
	_, task, err := cs.StartToolCall(ctx, "build_report", map[string]any{"pages": 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CancelTask(ctx, &mcp.CancelTaskParams{TaskID: task.TaskID}); err != nil {
		t.Fatal(err)
	}
	got, err := cs.GetTask(ctx, &mcp.GetTaskParams{TaskID: task.TaskID})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != mcp.TaskStatusCancelled {
		t.Errorf("status = %s, want cancelled", got.Status)
	}
}
