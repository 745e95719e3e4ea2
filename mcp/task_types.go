package mcp

import (
	"encoding/json"
	"fmt"
)

// Wire types of the tasks extension (io.modelcontextprotocol/tasks,
// 2026-07-28). They differ from the 2025-11-25 task types of
// protocol_tasks.go: durations are ttlMs and pollIntervalMs, a task's
// result, error and input requests are inlined in its state, and the
// extension has no tasks/result and no tasks/list. GetTaskParams and
// CancelTaskParams are shared with 2025-11-25.

// DetailedTask is the state of a task (tasks extension, 2026-07-28). It is
// three things on the wire:
//
//   - the CreateTaskResult a server answers tools/call with: ResultType
//     "task" and no Result, Error or InputRequests;
//   - the result of tasks/get: ResultType "complete", with InputRequests
//     when the status is input_required, Result when completed and Error
//     when failed;
//   - the params of notifications/tasks, with no ResultType.
type DetailedTask struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "task" in a CreateTaskResult, "complete" in the result
	// of tasks/get, and empty in a notification.
	ResultType string `json:"resultType,omitempty"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the task's state: TaskStatusWorking,
	// TaskStatusInputRequired, or one of the terminal TaskStatusCompleted,
	// TaskStatusFailed and TaskStatusCancelled.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the state, for people.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601
	// timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTLMs is how long, in milliseconds from its creation, the task is
	// kept; nil (null on the wire) means without limit.
	TTLMs *int64 `json:"ttlMs"`
	// PollIntervalMs is the suggested polling interval in milliseconds.
	PollIntervalMs *int64 `json:"pollIntervalMs,omitzero"`
	// InputRequests are the requests the client must answer, with
	// tasks/update, before the task can go on (status input_required).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// Result is what the original request returned, such as a
	// CallToolResult (status completed). A tool that failed completes too,
	// with isError in its result.
	Result json.RawMessage `json:"result,omitzero"`
	// Error is the JSON-RPC error the original request failed with (status
	// failed).
	Error *JSONRPCError `json:"error,omitzero"`
}

// Terminal reports whether the task has reached a final state: completed,
// failed or cancelled.
func (t *DetailedTask) Terminal() bool {
	return isTerminalTask(t.Status)
}

// CallToolResult decodes the Result of a completed tools/call task.
func (t *DetailedTask) CallToolResult() (*CallToolResult, error) {
	if t.Status != TaskStatusCompleted || len(t.Result) == 0 {
		return nil, fmt.Errorf("mcp: task %s has no result (status %s)", t.TaskID, t.Status)
	}
	var res CallToolResult
	if err := decodeResult(t.Result, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// clone returns a copy of t that shares no map with it.
func (t *DetailedTask) clone() *DetailedTask {
	c := *t
	if t.InputRequests != nil {
		c.InputRequests = make(map[string]*InputRequest, len(t.InputRequests))
		for k, v := range t.InputRequests {
			c.InputRequests[k] = v
		}
	}
	return &c
}

func isTerminalTask(s TaskStatus) bool {
	switch s {
	case TaskStatusCompleted, TaskStatusFailed, TaskStatusCancelled:
		return true
	}
	return false
}

// UpdateTaskParams are the params of tasks/update: answers to a task's
// input requests (tasks extension, 2026-07-28).
type UpdateTaskParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// InputResponses are the answers, keyed like the task's InputRequests:
	// an ElicitResult, CreateMessageResult or ListRootsResult each. The
	// server ignores keys that are not outstanding.
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}
