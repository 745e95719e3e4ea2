package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ErrTaskCancelled reports that a task ended cancelled instead of with a
// result.
var ErrTaskCancelled = errors.New("mcp: task cancelled")

// Bounds of the polling interval a client takes from a task, whatever the
// server suggests.
const (
	minTaskPoll = 10 * time.Millisecond
	maxTaskPoll = time.Minute
)

// requireTasks refuses a tasks/* request the session cannot make: the
// protocol must be 2026-07-28, and the client must declare the extension
// and the server support it.
func (cs *ClientSession) requireTasks() error {
	switch {
	case !cs.modern:
		return fmt.Errorf("%w: the tasks extension needs protocol %s", ErrNotSupported, Version20260728)
	case !declaresTasks(cs.declared()):
		return fmt.Errorf("%w: the client does not declare the %s extension in ClientOptions.Capabilities", ErrNotSupported, TasksExtension)
	case cs.serverCaps.Extensions[TasksExtension] == nil:
		return fmt.Errorf("%w: the server does not declare the %s extension", ErrNotSupported, TasksExtension)
	}
	return nil
}

// GetTask polls the state of a task: tasks/get (tasks extension,
// 2026-07-28, or 2025-11-25, where the state has no result: use
// GetTaskPayload).
func (cs *ClientSession) GetTask(ctx context.Context, params *GetTaskParams) (*DetailedTask, error) {
	if !cs.modern {
		if err := cs.requireLegacyTasks(MethodGetTask); err != nil {
			return nil, err
		}
		t, err := cs.getTaskLegacy(ctx, params)
		if err != nil {
			return nil, err
		}
		return detailedTaskOf(t), nil
	}
	if err := cs.requireTasks(); err != nil {
		return nil, err
	}
	return clientCall[GetTaskParams, DetailedTask](ctx, cs, MethodGetTask, params)
}

// UpdateTask answers input requests of a task: tasks/update (tasks
// extension, 2026-07-28). The server acknowledges at once; the task's new
// state shows in the next GetTask.
func (cs *ClientSession) UpdateTask(ctx context.Context, params *UpdateTaskParams) (*EmptyResult, error) {
	if err := cs.requireTasks(); err != nil {
		return nil, err
	}
	return clientCall[UpdateTaskParams, EmptyResult](ctx, cs, MethodUpdateTask, params)
}

// CancelTask asks the server to cancel a task: tasks/cancel (tasks
// extension, 2026-07-28, or 2025-11-25). Cancellation is cooperative: the
// task may still complete. At 2025-11-25 cancelling a task that has ended
// is an error (-32602).
func (cs *ClientSession) CancelTask(ctx context.Context, params *CancelTaskParams) (*EmptyResult, error) {
	if !cs.modern {
		if _, err := cs.cancelTaskLegacy(ctx, params); err != nil {
			return nil, err
		}
		return &EmptyResult{}, nil
	}
	if err := cs.requireTasks(); err != nil {
		return nil, err
	}
	return clientCall[CancelTaskParams, EmptyResult](ctx, cs, MethodCancelTask, params)
}

// taskHandoffKey is the context key under which StartToolCall asks
// awaitTask for the task instead of its result.
type taskHandoffKey struct{}

// StartToolCall calls a tool like CallTool, but if the server answers
// with a task it returns the task at once, without waiting for its result:
// exactly one of the result and the task is non-nil. Keep the task's id to
// wait for it with AwaitToolTask, from this or a later session. At
// 2025-11-25 the client asks for a task as CallTool does, or when
// opts.Task is set; the task's state then has no result. An
// opts.ProgressHandler hears the call's progress until StartToolCall
// returns.
func (cs *ClientSession) StartToolCall(ctx context.Context, name string, args any, opts *CallToolOptions) (*CallToolResult, *DetailedTask, error) {
	if err := requireServer(cs.serverCaps.Tools != nil, "tools"); err != nil {
		return nil, nil, err
	}
	params, done := cs.callToolParams(name, args, opts)
	defer done()
	var task *DetailedTask
	cs.offerTask(params) // task_legacy_client.go
	res, err := clientCallOwned[CallToolParams, CallToolResult](context.WithValue(ctx, taskHandoffKey{}, &task), cs, MethodCallTool, params)
	switch {
	case err != nil:
		return nil, nil, err
	case task != nil:
		return nil, task, nil
	}
	if err := cs.checkStructuredContent(params.Name, res); err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}

// AwaitToolTask waits for the result of a tools/call task: it polls the
// task, answers its input requests with the client's handlers, and returns
// the tool's result. If ctx ends first, it cancels the task. At
// 2025-11-25 it polls with tasks/get and reads the result with
// tasks/result, during which the server's requests for the task reach the
// client's handlers.
func (cs *ClientSession) AwaitToolTask(ctx context.Context, taskID string) (*CallToolResult, error) {
	if !cs.modern {
		if err := cs.requireLegacyTasks(MethodGetTask); err != nil {
			return nil, err
		}
		t, err := cs.getTaskLegacy(ctx, &GetTaskParams{TaskID: taskID})
		if err != nil {
			return nil, err
		}
		return cs.followLegacyTask(ctx, MethodCallTool, t)
	}
	if err := cs.requireTasks(); err != nil {
		return nil, err
	}
	t, err := cs.GetTask(ctx, &GetTaskParams{TaskID: taskID})
	if err != nil {
		if ctx.Err() != nil {
			cs.abandonTask(ctx, taskID)
		}
		return nil, err
	}
	res := new(CallToolResult)
	if err := cs.followTask(ctx, MethodCallTool, t, res); err != nil {
		return nil, err
	}
	return res, nil
}

// awaitTask handles a result with resultType "task" (clientCallOwned): it
// waits for the task and decodes its result into out, or hands the task to
// StartToolCall.
func (cs *ClientSession) awaitTask(ctx context.Context, method string, raw []byte, out any) error {
	switch {
	case method != MethodCallTool:
		return fmt.Errorf("%s: the server answered with a task, which this request cannot have", method)
	case !declaresTasks(cs.declared()):
		return fmt.Errorf("%s: the server answered with a task, but the client did not declare the %s extension", method, TasksExtension)
	}
	var t DetailedTask
	if err := decodeResult(raw, &t); err != nil {
		return err
	}
	if t.TaskID == "" {
		return fmt.Errorf("%s: the server answered with a task without a taskId", method)
	}
	if dst, ok := ctx.Value(taskHandoffKey{}).(**DetailedTask); ok {
		*dst = &t
		return nil
	}
	return cs.followTask(ctx, method, &t, out)
}

// followTask polls a task until it ends, answering its input requests,
// and decodes its result into out. If ctx ends first, it cancels the task.
func (cs *ClientSession) followTask(ctx context.Context, method string, t *DetailedTask, out any) error {
	answered := make(map[string]bool) // input keys answered already
	for {
		switch t.Status {
		case TaskStatusCompleted:
			if len(t.Result) == 0 {
				return fmt.Errorf("%s: task %s completed without a result", method, t.TaskID)
			}
			reflect.ValueOf(out).Elem().SetZero() // it may hold the CreateTaskResult
			return decodeResult(t.Result, out)
		case TaskStatusFailed:
			if t.Error == nil {
				return fmt.Errorf("%s: task %s failed: %s", method, t.TaskID, t.StatusMessage)
			}
			return fmt.Errorf("%s: task %s failed: %w", method, t.TaskID, t.Error)
		case TaskStatusCancelled:
			return fmt.Errorf("%s: task %s: %w", method, t.TaskID, ErrTaskCancelled)
		}
		wait := taskPollInterval(t)
		if t.Status == TaskStatusInputRequired {
			n, err := cs.answerTask(ctx, method, t, answered)
			if err != nil {
				cs.abandonTask(ctx, t.TaskID)
				return err
			}
			if n > 0 {
				wait = 0 // look at the task's new state at once
			}
		}
		if wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				timer.Stop()
				cs.abandonTask(ctx, t.TaskID)
				return ctx.Err()
			case <-timer.C:
			}
		}
		next, err := cs.GetTask(ctx, &GetTaskParams{TaskID: t.TaskID})
		if err != nil {
			if ctx.Err() != nil {
				cs.abandonTask(ctx, t.TaskID)
			}
			return err
		}
		t = next
	}
}

// taskPollInterval returns how long to wait before polling t again.
func taskPollInterval(t *DetailedTask) time.Duration {
	if t.PollIntervalMs == nil {
		return DefaultTaskPollInterval
	}
	return min(max(time.Duration(*t.PollIntervalMs)*time.Millisecond, minTaskPoll), maxTaskPoll)
}

// answerTask answers, with the client's handlers, the input requests of t
// not answered before, and sends the answers with tasks/update. It returns
// how many it answered.
func (cs *ClientSession) answerTask(ctx context.Context, method string, t *DetailedTask, answered map[string]bool) (int, error) {
	responses := make(map[string]json.RawMessage)
	for _, key := range slices.Sorted(maps.Keys(t.InputRequests)) {
		req := t.InputRequests[key]
		if answered[key] || req == nil {
			continue
		}
		res, err := cs.answerInput(ctx, req.Method, req.Params)
		if err != nil {
			return 0, fmt.Errorf("%s: task %s: answering %s: %w", method, t.TaskID, req.Method, err)
		}
		b, err := strictjson.Marshal(res)
		if err != nil {
			return 0, err
		}
		responses[key] = b
	}
	if len(responses) == 0 {
		return 0, nil
	}
	if _, err := cs.UpdateTask(ctx, &UpdateTaskParams{TaskID: t.TaskID, InputResponses: responses}); err != nil {
		return 0, err
	}
	for key := range responses {
		answered[key] = true
	}
	return len(responses), nil
}

// abandonTask cancels a task the client no longer waits for, on a best
// effort basis.
func (cs *ClientSession) abandonTask(ctx context.Context, taskID string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if _, err := cs.CancelTask(cctx, &CancelTaskParams{TaskID: taskID}); err != nil {
		// Best effort: the task expires by its TTL anyway.
		cs.client.logger().Debug("mcp: cancelling an abandoned task failed", "task", taskID, "error", err)
	}
}

// declared returns the capabilities the session declares now: the
// client's current ones in 2026-07-28 (each request carries them), those
// sent at initialize before.
func (cs *ClientSession) declared() *ClientCapabilities {
	if cs.modern {
		return cs.client.caps.Load()
	}
	return cs.caps
}
