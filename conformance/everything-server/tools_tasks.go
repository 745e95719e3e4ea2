package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The fixtures of the tasks-* scenarios (the io.modelcontextprotocol/tasks
// extension, SEP-2663). Their calls become tasks when the request declares
// the extension: the SDK answers with the task and runs the handler in the
// background, and inside a task Elicit waits for tasks/update.

// taskTools returns the tools of the tasks-* scenarios.
func taskTools() []*mcp.ServerTool {
	nameSchema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"Whom to greet"}},"required":["name"]}`)
	withTasks := func(t *mcp.ServerTool, support string) *mcp.ServerTool {
		t.Tool.Execution = &mcp.ToolExecution{TaskSupport: support}
		return t
	}
	gather := withTasks(tool("test_tool_with_task", "Asks the user's name through an input-required result, then finishes as a task.", nil, gatherThenTask), mcp.TaskSupportRequired)
	gather.HandlerStartsTask = true
	return []*mcp.ServerTool{
		tool("greet", "Greets by name, synchronously.", nameSchema,
			func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				var args struct {
					Name string `json:"name"`
				}
				if err := decodeArgs(p, &args); err != nil {
					return nil, err
				}
				return textResult("Hello, " + args.Name + "!"), nil
			}),
		withTasks(tool("slow_compute", "Sleeps for the given seconds, then reports.",
			json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"number","description":"How long to work"},"label":{"type":"string","description":"A label echoed in the result"}}}`),
			slowCompute), mcp.TaskSupportOptional),
		withTasks(tool("failing_job", "Fails with a tool error after about a second; runs only as a task.", nil,
			func(ctx context.Context, _ *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				if err := sleep(ctx, time.Second); err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("the job failed")
			}), mcp.TaskSupportRequired),
		withTasks(tool("protocol_error_job", "Breaks with a protocol-level error.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				// The SDK turns the panic of a task's handler into a failed
				// task with an internal error.
				panic("protocol_error_job: deliberate failure")
			}), mcp.TaskSupportOptional),
		withTasks(tool("confirm_delete", "Asks for confirmation, then deletes (pretends to) a file.",
			json.RawMessage(`{"type":"object","properties":{"filename":{"type":"string","description":"The file to delete"}}}`),
			confirmDelete), mcp.TaskSupportOptional),
		withTasks(tool("multi_input", "Asks two questions at once.", nil, multiInput), mcp.TaskSupportOptional),
		gather,
	}
}

// slowCompute works for arguments.seconds seconds.
func slowCompute(ctx context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var args struct {
		Seconds float64 `json:"seconds"`
		Label   string  `json:"label"`
	}
	if err := decodeArgs(p, &args); err != nil {
		return nil, err
	}
	if err := sleep(ctx, time.Duration(args.Seconds*float64(time.Second))); err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("computed %q in %gs", args.Label, args.Seconds)), nil
}

// confirmDelete asks one yes-or-no question.
func confirmDelete(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var args struct {
		Filename string `json:"filename"`
	}
	if err := decodeArgs(p, &args); err != nil {
		return nil, err
	}
	ok, err := askBool(ctx, ss, "Delete "+args.Filename+"?", "confirm")
	if err != nil {
		return nil, err
	}
	if !ok {
		return textResult("kept " + args.Filename), nil
	}
	return textResult("deleted " + args.Filename), nil
}

// multiInput asks for a name and a confirmation in parallel, so that both
// are pending at once.
func multiInput(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var name string
	var ok bool
	err := ss.AskAll(ctx,
		func(ctx context.Context) (err error) {
			name, err = askString(ctx, ss, "What is your name?", "name")
			return err
		},
		func(ctx context.Context) (err error) { ok, err = askBool(ctx, ss, "Proceed?", "confirm"); return err },
	)
	if err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("name=%s; confirmed=%v", name, ok)), nil
}

// gatherThenTask asks for the user's name synchronously (an input-required
// result named user_name), then becomes a task for the rest of the work.
func gatherThenTask(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	name, err := askName(mcp.InputKey(ctx, "user_name"), ss, "What is your name?")
	if err != nil {
		return nil, err
	}
	if err := ss.StartTask(ctx); err != nil {
		return nil, err
	}
	if err := sleep(ctx, 200*time.Millisecond); err != nil {
		return nil, err
	}
	return textResult("Hello, " + name + "!"), nil
}

// askBool elicits one required boolean field.
func askBool(ctx context.Context, ss *mcp.ServerSession, message, field string) (bool, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: message,
		RequestedSchema: &mcp.ElicitationSchema{
			Type:       "object",
			Properties: map[string]*mcp.PrimitiveSchema{field: {Type: "boolean"}},
			Required:   []string{field},
		},
	})
	if err != nil {
		return false, err
	}
	v, _ := res.Content[field].(bool)
	return res.Action == mcp.ElicitActionAccept && v, nil
}
