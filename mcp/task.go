package mcp

import (
	"time"
)

// TasksExtension is the identifier of the tasks extension, the key under
// which clients and servers declare it in their capabilities' Extensions.
//
// The extension (SEP-2663) lets a 2026-07-28
// server answer tools/call with a task handle instead of the
// tool's result: the client polls tasks/get until the task is terminal,
// answers the task's input requests with tasks/update, and may cancel it
// with tasks/cancel.
//
// Server side: give a tool TaskSupport(TaskSupportOptional) or
// TaskSupport(TaskSupportRequired). When a client declares the extension in
// a request's capabilities, a call of such a tool becomes a task: the
// server stores the task (see TaskStore), answers with the task's initial
// state, and runs the handler in the background. Inside the handler,
// Elicit, CreateMessage and ListRoots wait until the client answers through
// tasks/update; the task is input_required meanwhile. AskAll asks several
// questions at once. Progress and log notifications of a task's handler
// are dropped: the extension has no stream to carry them. A tool whose ServerTool.HandlerStartsTask is set runs
// synchronously until its handler calls ServerSession.StartTask, so it can
// gather input through input-required results first. A call from a client
// that did not declare the extension runs synchronously, except that a
// TaskSupportRequired tool refuses it with -32021.
//
// Client side: declare the extension in ClientOptions.Capabilities:
//
//	Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcp.TasksExtension: map[string]any{}}}
//
// Then CallTool waits for a task's result transparently: it polls tasks/get
// at the interval the server suggests and answers input requests with the
// client's handlers. StartToolCall and AwaitToolTask expose the task handle
// for callers that persist task ids; GetTask, UpdateTask and CancelTask are
// the extension's methods.
//
// Protocol 2025-11-25 has tasks in the core protocol, with a different
// design, and the same tools serve them: a server with tools that support
// tasks declares the tasks capability at initialize, and a tools/call with
// params.task becomes a task, stored in the same TaskStore. Its handler
// asks the client with ordinary requests (the task is input_required
// until the answer comes), the client reads the result with tasks/result,
// and tasks/list lists the tasks of the session. A client that declares
// the extension asks for tasks at 2025-11-25 for the tools tools/list said
// support them (or set CallToolParams.Task), and CallTool follows the task
// as in 2026-07-28. ServerSession.TaskID is empty in such a handler:
// tasks of 2025-11-25 are bound to the handler's context, not its
// session. Earlier revisions have no tasks: every call runs synchronously.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Method names the tasks extension adds to those of 2025-11-25 (tasks/get
// and tasks/cancel keep their names; tasks/result and tasks/list are gone).
const (
	// MethodUpdateTask delivers answers to a task's input requests
	// (tasks extension, 2026-07-28).
	MethodUpdateTask = "tasks/update"
	// NotificationTasks carries a task's new state on a
	// subscriptions/listen stream (tasks extension, 2026-07-28).
	NotificationTasks = "notifications/tasks"
)

// Task defaults, used when the corresponding TaskOptions field is zero.
const (
	// DefaultTaskTTL is how long a task is kept after its creation.
	DefaultTaskTTL = time.Hour
	// DefaultTaskPollInterval is the polling interval suggested to
	// clients.
	DefaultTaskPollInterval = time.Second
)

// TaskOptions configure a server's tasks. A nil *TaskOptions means
// defaults.
type TaskOptions struct {
	// Store keeps the state of tasks. Nil means a store in memory with the
	// default bounds (NewMemoryTaskStore(nil)).
	Store TaskStore
	// TTL is how long a task stays readable after its creation (its ttlMs).
	// A handler still running when it elapses is cancelled. Zero means
	// DefaultTaskTTL.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients (the
	// task's pollIntervalMs). Zero means DefaultTaskPollInterval.
	PollInterval time.Duration
	// NewTaskID, if set, makes the id of each new task, for example to
	// reuse the id of an external job. Ids must be unique, and
	// unguessable: a task id is all a client needs to read a task. Nil
	// means 128 random bits in UUID form.
	NewTaskID func() string
}

// TaskSupport declares whether calls of the tool may run as tasks:
// TaskSupportOptional or TaskSupportRequired (TaskSupportForbidden, the
// default, removes the declaration). It sets the tool's
// execution.taskSupport.
func TaskSupport(mode string) ToolOption {
	return toolOptionFunc(func(c *toolConfig) {
		if mode == "" || mode == TaskSupportForbidden {
			c.tool.Execution = nil
			return
		}
		c.tool.Execution = &ToolExecution{TaskSupport: mode}
	})
}

// taskSupportOf returns the task support a tool declares.
func taskSupportOf(t *Tool) string {
	if t == nil || t.Execution == nil {
		return TaskSupportForbidden
	}
	switch t.Execution.TaskSupport {
	case TaskSupportOptional, TaskSupportRequired:
		return t.Execution.TaskSupport
	}
	return TaskSupportForbidden
}

// declaresTasks reports whether capabilities declare the tasks extension.
func declaresTasks(caps *ClientCapabilities) bool {
	return caps != nil && caps.Extensions[TasksExtension] != nil
}

// errMissingTasksExtension is the -32021 error of a request that needs the
// client to declare the tasks extension.
func errMissingTasksExtension(why string) error {
	return newErrorWithData(CodeMissingRequiredClientCapability, "Missing required client capability: "+why,
		&MissingCapabilitiesData{RequiredCapabilities: &ClientCapabilities{
			Extensions: map[string]any{TasksExtension: map[string]any{}},
		}})
}
