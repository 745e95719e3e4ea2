package mcp

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// The client's side of the tasks of protocol 2025-11-25: a tools/call
// answered with a CreateTaskResult is followed as a task of the tasks
// extension is in 2026-07-28 (task_client.go): tasks/get at the polling
// interval the server suggests, then tasks/result for the tool's result;
// if the caller's context ends first, tasks/cancel. While the task is
// input_required the client waits in tasks/result, and the server's
// requests for the task reach the client's handlers meanwhile.

// requireLegacyTasks refuses a 2025-11-25 tasks/* request the session
// cannot make.
func (cs *ClientSession) requireLegacyTasks(method string) error {
	switch {
	case cs.version != Version20251125:
		return fmt.Errorf("%w: %s needs protocol %s (or the %s extension of %s); this session uses %s",
			ErrNotSupported, method, Version20251125, TasksExtension, Version20260728, cs.version)
	case cs.serverCaps.Tasks == nil:
		return fmt.Errorf("%w: the server declares no tasks capability", ErrNotSupported)
	case method == MethodListTasks && cs.serverCaps.Tasks.List == nil:
		return fmt.Errorf("%w: the server does not declare tasks.list", ErrNotSupported)
	}
	return nil
}

// ListTasks lists the tasks the server keeps for this session: tasks/list
// (2025-11-25).
func (cs *ClientSession) ListTasks(ctx context.Context, params *ListTasksParams) (*ListTasksResult, error) {
	if err := cs.requireLegacyTasks(MethodListTasks); err != nil {
		return nil, err
	}
	return clientCall[ListTasksParams, ListTasksResult](ctx, cs, MethodListTasks, params)
}

// GetTaskPayload waits until a task ends and returns the result of its
// request, such as a CallToolResult (use Decode): tasks/result
// (2025-11-25). A request that failed gives its error.
func (cs *ClientSession) GetTaskPayload(ctx context.Context, params *GetTaskPayloadParams) (*GetTaskPayloadResult, error) {
	if err := cs.requireLegacyTasks(MethodGetTaskPayload); err != nil {
		return nil, err
	}
	return clientCall[GetTaskPayloadParams, GetTaskPayloadResult](ctx, cs, MethodGetTaskPayload, params)
}

// getTaskLegacy is tasks/get at 2025-11-25.
func (cs *ClientSession) getTaskLegacy(ctx context.Context, params *GetTaskParams) (*Task, error) {
	res, err := clientCall[GetTaskParams, GetTaskResult](ctx, cs, MethodGetTask, params)
	if err != nil {
		return nil, err
	}
	return &Task{
		TaskID: res.TaskID, Status: res.Status, StatusMessage: res.StatusMessage,
		CreatedAt: res.CreatedAt, LastUpdatedAt: res.LastUpdatedAt, TTL: res.TTL, PollInterval: res.PollInterval,
	}, nil
}

// cancelTaskLegacy is tasks/cancel at 2025-11-25.
func (cs *ClientSession) cancelTaskLegacy(ctx context.Context, params *CancelTaskParams) (*CancelTaskResult, error) {
	if err := cs.requireLegacyTasks(MethodCancelTask); err != nil {
		return nil, err
	}
	return clientCall[CancelTaskParams, CancelTaskResult](ctx, cs, MethodCancelTask, params)
}

// detailedTaskOf returns a 2025-11-25 task in the form of the tasks
// extension, without result.
func detailedTaskOf(t *Task) *DetailedTask {
	return &DetailedTask{
		TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTLMs: t.TTL, PollIntervalMs: t.PollInterval,
	}
}

// maxCreateTaskResult bounds the size of a result the client looks at for
// a CreateTaskResult, which is small: a large result is never one, and is
// not scanned.
const maxCreateTaskResult = 64 << 10

// createdTask returns the task of a CreateTaskResult, if raw is one: a
// result whose task member is an object.
func createdTask(raw []byte) (*Task, bool) {
	if len(raw) > maxCreateTaskResult || !bytes.Contains(raw, []byte(`"task"`)) {
		return nil, false
	}
	var r struct {
		Task *Task `json:"task"`
	}
	if err := strictjson.UnmarshalTrusted(raw, &r); err != nil || r.Task == nil {
		return nil, false
	}
	return r.Task, true
}

// legacyTaskAnswer handles a result of the legacy era (roundTrips) that is
// a CreateTaskResult: it follows the task and decodes its result into
// out, or hands the task to StartToolCall. Any other result is left as it
// is. A task the client cannot follow is an error, never an empty result.
func (cs *ClientSession) legacyTaskAnswer(ctx context.Context, method string, raw []byte, out any) error {
	t, ok := createdTask(raw)
	if !ok {
		return nil
	}
	res, isCall := out.(*CallToolResult)
	if !isCall && !sdkResult(out) {
		return nil // Call's caller decodes the answer into a type of its own
	}
	switch {
	case method != MethodCallTool || !isCall:
		return fmt.Errorf("%s: the server answered with a task (CreateTaskResult), which this request cannot have", method)
	case cs.version != Version20251125:
		return fmt.Errorf("%s: the server answered with a task (CreateTaskResult), but protocol %s has no tasks", method, cs.version)
	case t.TaskID == "":
		return fmt.Errorf("%s: the server answered with a task without a taskId", method)
	}
	if dst, ok := ctx.Value(taskHandoffKey{}).(**DetailedTask); ok {
		*dst = detailedTaskOf(t)
		return nil
	}
	final, err := cs.followLegacyTask(ctx, method, t)
	if err != nil {
		return err
	}
	*res = *final
	return nil
}

// sdkResult reports whether out points to one of this package's result
// types other than those that hold any result (CreateTaskResult,
// GetTaskPayloadResult).
func sdkResult(out any) bool {
	switch out.(type) {
	case *CreateTaskResult, *GetTaskPayloadResult:
		return false
	}
	t := reflect.TypeOf(out)
	return t.Kind() == reflect.Pointer && t.Elem().PkgPath() == reflect.TypeFor[CallToolResult]().PkgPath()
}

// followLegacyTask polls a 2025-11-25 task until it ends or needs input,
// then reads its result with tasks/result. If ctx ends first, it cancels
// the task.
func (cs *ClientSession) followLegacyTask(ctx context.Context, method string, t *Task) (*CallToolResult, error) {
	for {
		switch t.Status {
		case TaskStatusCancelled:
			return nil, fmt.Errorf("%s: task %s: %w", method, t.TaskID, ErrTaskCancelled)
		case TaskStatusCompleted, TaskStatusFailed, TaskStatusInputRequired:
			res, err := clientCallOwned[GetTaskPayloadParams, CallToolResult](ctx, cs, MethodGetTaskPayload, &GetTaskPayloadParams{TaskID: t.TaskID})
			if err != nil {
				if ctx.Err() != nil {
					cs.abandonTask(ctx, t.TaskID)
					return nil, err
				}
				return nil, fmt.Errorf("%s: task %s failed: %w", method, t.TaskID, err)
			}
			return res, nil
		}
		timer := time.NewTimer(legacyPollInterval(t))
		select {
		case <-ctx.Done():
			timer.Stop()
			cs.abandonTask(ctx, t.TaskID)
			return nil, ctx.Err()
		case <-timer.C:
		}
		next, err := cs.getTaskLegacy(ctx, &GetTaskParams{TaskID: t.TaskID})
		if err != nil {
			if ctx.Err() != nil {
				cs.abandonTask(ctx, t.TaskID)
			}
			return nil, err
		}
		t = next
	}
}

// legacyPollInterval returns how long to wait before polling t again.
func legacyPollInterval(t *Task) time.Duration {
	return taskPollInterval(&DetailedTask{PollIntervalMs: t.PollInterval})
}

// offerTask asks for a task in a tools/call at 2025-11-25 when the client
// opted into tasks (it declares the tasks extension), the server takes
// task-augmented tool calls and the tool supports them, as tools/list
// said.
func (cs *ClientSession) offerTask(p *CallToolParams) {
	if p.Task != nil || cs.version != Version20251125 || !declaresTasks(cs.declared()) {
		return
	}
	if tc := cs.serverCaps.Tasks; tc == nil || tc.Requests == nil || tc.Requests.Tools == nil || tc.Requests.Tools.Call == nil {
		return
	}
	cs.mu.Lock()
	support := cs.toolTasks[p.Name]
	cs.mu.Unlock()
	if support == TaskSupportOptional || support == TaskSupportRequired {
		p.Task = &TaskMetadata{}
	}
}

// learnTaskSupportLocked remembers whether a listed tool supports tasks,
// for offerTask. cs.mu is held.
func (cs *ClientSession) learnTaskSupportLocked(t *Tool) {
	support := taskSupportOf(t)
	if support == TaskSupportForbidden {
		delete(cs.toolTasks, t.Name)
		return
	}
	if cs.toolTasks == nil {
		cs.toolTasks = make(map[string]string)
	}
	cs.toolTasks[t.Name] = support
}
