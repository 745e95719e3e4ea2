package main

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/mcp"
)

// tasksOptions declare the tasks extension.
func tasksOptions(c *cmdCtx) mcp.ClientOptions {
	opts := askOptions(c)
	opts.Capabilities = &mcp.ClientCapabilities{Extensions: map[string]any{mcp.TasksExtension: map[string]any{}}}
	return opts
}

func cmdTasks(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) != 2 {
		return usageError("tasks: gomcp tasks TARGET get|result|cancel TASK_ID")
	}
	op, id := c.positional[0], c.positional[1]
	if op != "get" && op != "result" && op != "cancel" {
		return usageError("tasks: unknown operation %q: want get, result or cancel", op)
	}
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, tasksOptions(c))
	if err != nil {
		return err
	}
	defer s.Close()
	switch op {
	case "get":
		t, err := s.GetTask(ctx, &mcp.GetTaskParams{TaskID: id})
		if err != nil {
			return s.fail(err, "tasks/get")
		}
		return printTask(c, t)
	case "cancel":
		if _, err := s.CancelTask(ctx, &mcp.CancelTaskParams{TaskID: id}); err != nil {
			return s.fail(err, "tasks/cancel")
		}
		if c.o.json {
			return printJSON(c.env.stdout, struct {
				TaskID    string `json:"taskId"`
				Cancelled bool   `json:"cancelRequested"`
			}{id, true})
		}
		fmt.Fprintf(c.env.stdout, "cancellation of %s requested\n", id)
		return nil
	}
	res, err := s.AwaitToolTask(ctx, id)
	if err != nil {
		return s.fail(err, "waiting for task "+id)
	}
	return printToolResult(c, res)
}

func printTask(c *cmdCtx, t *mcp.DetailedTask) error {
	if c.o.json {
		return printJSON(c.env.stdout, t)
	}
	fmt.Fprintf(c.env.stdout, "task %s: %s", t.TaskID, t.Status)
	if t.StatusMessage != "" {
		fmt.Fprintf(c.env.stdout, " (%s)", t.StatusMessage)
	}
	fmt.Fprintln(c.env.stdout)
	return nil
}
