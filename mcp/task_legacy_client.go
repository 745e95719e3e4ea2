package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Tasks of protocol 2025-11-25, client side. In that revision tasks are
// part of the core protocol: a tools/call whose params carry a task member
// may be answered with a CreateTaskResult instead of the tool's result; the
// client then polls tasks/get (at the task's pollInterval) until the task
// leaves "working", and fetches the outcome with tasks/result, which the
// server holds until the task ends (answering its questions through the
// ordinary server-to-client requests meanwhile). A client that gives up
// cancels the task with tasks/cancel.

// callToolTask sends a task-augmented tools/call on a 2025-11-25
// connection and returns the tool's result, following the task if the
// server made one.
func (cs *ClientSession) callToolTask(ctx context.Context, params *CallToolParams) (*CallToolResult, error) {
	out, err := clientCallOwned[CallToolParams, GetTaskPayloadResult](ctx, cs, MethodCallTool, params)
	if err != nil {
		return nil, err
	}
	if _, isTask := out.Fields["task"]; !isTask {
		// The server ran the call at once: an ordinary result.
		res := new(CallToolResult)
		if err := out.Decode(res); err != nil {
			return nil, fmt.Errorf("%s: %w", MethodCallTool, err)
		}
		return res, nil
	}
	var created CreateTaskResult
	if err := out.Decode(&created); err != nil {
		return nil, fmt.Errorf("%s: decoding the created task: %w", MethodCallTool, err)
	}
	if created.Task == nil || created.Task.TaskID == "" {
		return nil, fmt.Errorf("%s: the server answered with a task without a taskId", MethodCallTool)
	}
	res, err := cs.followLegacyTask(ctx, created.Task)
	if err != nil && ctx.Err() != nil {
		cs.cancelLegacyTask(ctx, created.Task.TaskID)
	}
	return res, err
}

// followLegacyTask polls a 2025-11-25 task until it is no longer working,
// then fetches its outcome with tasks/result.
func (cs *ClientSession) followLegacyTask(ctx context.Context, t *Task) (*CallToolResult, error) {
	status, poll := t.Status, legacyPollInterval(t.PollInterval)
	for status == TaskStatusWorking {
		timer := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		got, err := clientCall[GetTaskParams, GetTaskResult](ctx, cs, MethodGetTask, &GetTaskParams{TaskID: t.TaskID})
		if err != nil {
			return nil, err
		}
		status, poll = got.Status, legacyPollInterval(got.PollInterval)
	}
	if status == TaskStatusCancelled {
		return nil, fmt.Errorf("%s: task %s was cancelled", MethodCallTool, t.TaskID)
	}
	// completed, failed or input_required: tasks/result answers once the
	// task has ended, with the tool's result or its error.
	payload, err := clientCall[GetTaskPayloadParams, GetTaskPayloadResult](ctx, cs, MethodGetTaskPayload, &GetTaskPayloadParams{TaskID: t.TaskID})
	if err != nil {
		return nil, err
	}
	res := new(CallToolResult)
	if err := payload.Decode(res); err != nil {
		return nil, fmt.Errorf("%s: decoding the result of task %s: %w", MethodGetTaskPayload, t.TaskID, err)
	}
	return res, nil
}

// legacyPollInterval is the wait between two tasks/get requests: the
// server's pollInterval, within bounds; one second if it gave none.
func legacyPollInterval(ms *int64) time.Duration {
	if ms == nil {
		return time.Second
	}
	return min(max(time.Duration(*ms)*time.Millisecond, minTaskPoll), maxTaskPoll)
}

// cancelLegacyTask cancels a task the client no longer waits for, on a
// best-effort basis: the task expires by its TTL anyway.
func (cs *ClientSession) cancelLegacyTask(ctx context.Context, taskID string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, err := clientCall[CancelTaskParams, CancelTaskResult](cctx, cs, MethodCancelTask, &CancelTaskParams{TaskID: taskID})
	if err != nil && !errors.Is(err, ErrConnectionClosed) {
		cs.client.logger().Debug("mcp: cancelling an abandoned task failed", "task", taskID, "error", err)
	}
}
