package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ---- Tasks (2025-11-25) ----

// TaskStatus is the state of a task (2025-11-25).
type TaskStatus string

// Task states. Completed, failed and cancelled are terminal.
const (
	// TaskStatusWorking means the request is being processed.
	TaskStatusWorking TaskStatus = "working"
	// TaskStatusInputRequired means the receiver needs input from the
	// requestor.
	TaskStatusInputRequired TaskStatus = "input_required"
	// TaskStatusCompleted means the request finished successfully.
	TaskStatusCompleted TaskStatus = "completed"
	// TaskStatusFailed means the request failed.
	TaskStatusFailed TaskStatus = "failed"
	// TaskStatusCancelled means the request was cancelled.
	TaskStatusCancelled TaskStatus = "cancelled"
)

// TaskMetadata asks the receiver to run a request as a task; it is the
// task member of task-augmented params (2025-11-25).
type TaskMetadata struct {
	// TTL is how long, in milliseconds, to keep the task after creation.
	TTL *int64 `json:"ttl,omitzero"`
}

// Task is the state of a task (2025-11-25).
type Task struct {
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is how long, in milliseconds, the task is kept after creation; nil
	// (null on the wire) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// CreateTaskResult is the result of a task-augmented request: the created
// task instead of the request's own result (2025-11-25).
type CreateTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// Task is the created task.
	Task *Task `json:"task"`
}

// GetTaskParams are the params of tasks/get (2025-11-25).
type GetTaskParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// GetTaskResult is the result of tasks/get: the task's state (2025-11-25).
type GetTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// CancelTaskParams are the params of tasks/cancel (2025-11-25).
type CancelTaskParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// CancelTaskResult is the result of tasks/cancel: the task's state after
// cancellation (2025-11-25).
type CancelTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// GetTaskPayloadParams are the params of tasks/result (2025-11-25).
type GetTaskPayloadParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// GetTaskPayloadResult is the result of tasks/result: the result the
// original request would have returned, such as a [CallToolResult]
// (2025-11-25). Fields holds every member other than _meta and resultType
// as raw JSON; Decode turns the whole result into a typed one.
type GetTaskPayloadResult struct {
	// Meta is the _meta member.
	Meta Meta
	// ResultType is the resultType member, if any.
	ResultType string
	// Fields holds the other members, keyed by name.
	Fields map[string]json.RawMessage
}

type getTaskPayloadResultWire struct {
	Meta       Meta                       `json:"_meta,omitzero"`
	ResultType string                     `json:"resultType,omitempty"`
	Fields     map[string]json.RawMessage `json:",inline"`
}

// MarshalJSON encodes r as one JSON object.
func (r GetTaskPayloadResult) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal(getTaskPayloadResultWire(r))
}

// UnmarshalJSON decodes any result object into r.
func (r *GetTaskPayloadResult) UnmarshalJSON(data []byte) error {
	var w getTaskPayloadResultWire
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*r = GetTaskPayloadResult(w)
	return nil
}

// Decode decodes the whole result into v, a pointer to a result type such
// as *CallToolResult.
func (r *GetTaskPayloadResult) Decode(v any) error {
	data, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	return strictjson.UnmarshalTrusted(data, v)
}

// ListTasksParams are the params of tasks/list (2025-11-25).
type ListTasksParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListTasksResult is the result of tasks/list (2025-11-25).
type ListTasksResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// Tasks is one page of tasks.
	Tasks []*Task `json:"tasks"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
}

// TaskStatusParams are the params of notifications/tasks/status: the
// task's new state (2025-11-25).
type TaskStatusParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}
