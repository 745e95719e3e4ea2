package mcp

import (
	"context"
	"fmt"
	"time"
)

// Tasks of protocol 2025-11-25, server side: the same tools, TaskSupport
// and TaskStore as the 2026-07-28 tasks extension, served with the core
// methods of 2025-11-25. A task-augmented tools/call is answered with a
// CreateTaskResult and the handler runs in the background on the session
// (its questions to the client are ordinary server-to-client requests);
// tasks/get reports the state, tasks/result waits for the end and returns
// what the call would have returned, tasks/cancel cancels.

// legacyTasks reports whether the session serves the tasks of 2025-11-25.
func (ss *ServerSession) legacyTasks() bool {
	return ss.request == nil && ss.ProtocolVersion() == Version20251125
}

// legacyTaskCapabilities declares the tasks of 2025-11-25 in an initialize
// result, when a tool of the server supports tasks.
func (s *Server) legacyTaskCapabilities(caps *ServerCapabilities, version string) {
	if version != Version20251125 || caps.Tasks != nil || !s.hasTaskTools() {
		return
	}
	caps.Tasks = &ServerTasksCapability{
		Cancel:   &TasksCancelCapability{},
		Requests: &ServerTaskRequests{Tools: &TaskToolRequests{Call: &TaskRequestCapability{}}},
	}
}

// callToolAsLegacyTask serves a tools/call of a 2025-11-25 session that
// is, or must be, a task. ok is false for an ordinary call.
func (ss *ServerSession) callToolAsLegacyTask(ctx context.Context, p *CallToolParams) (res any, ok bool, err error) {
	if !ss.legacyTasks() {
		return nil, false, nil
	}
	tool, found := ss.server.tools.get(p.Name)
	if !found {
		return nil, false, nil
	}
	switch support := taskSupportOf(tool.Tool); {
	case p.Task == nil && support == TaskSupportRequired:
		return nil, true, newError(CodeMethodNotFound, "tool %q runs only as a task: task augmentation required for tools/call", p.Name)
	case p.Task == nil:
		return nil, false, nil
	case support == TaskSupportForbidden:
		return nil, true, newError(CodeMethodNotFound, "tool %q does not support tasks", p.Name)
	}
	e := ss.server.taskEngine()
	r, hctx := e.newRun(ctx, ss.server)
	if err := r.start(context.WithoutCancel(ctx), 0); err != nil {
		r.cancel()
		return nil, true, newError(CodeInternalError, "%v", err)
	}
	hctx = context.WithValue(hctx, legacyTaskKey{}, r)
	go r.execute(hctx, ss, tool, p, make(chan toolOutcome, 1))
	return &CreateTaskResult{Task: legacyTask(r.created)}, true, nil
}

type legacyTaskKey struct{}

// legacyTaskOf returns the 2025-11-25 task whose handler ctx belongs to,
// or nil.
func legacyTaskOf(ctx context.Context) *taskRun {
	r, _ := ctx.Value(legacyTaskKey{}).(*taskRun)
	return r
}

// askingFor marks the task input_required while its handler asks the
// client, and returns a copy of params tagged with the task in _meta, as
// 2025-11-25 asks of requests made for a task.
func askingFor[P any](r *taskRun, ctx context.Context, params *P) *P {
	r.mu.Lock()
	r.asking++
	first := r.asking == 1
	r.mu.Unlock()
	if first {
		r.setStatus(ctx, TaskStatusInputRequired)
	}
	p := cloneParams(params)
	if m := metaOf(p); m != nil {
		m.RelatedTask = &RelatedTaskMetadata{TaskID: r.id}
	}
	return p
}

// gotInput marks the task working again once its handler has its answer.
func (r *taskRun) gotInput(ctx context.Context) {
	r.mu.Lock()
	r.asking--
	last := r.asking == 0
	r.mu.Unlock()
	if last {
		r.setStatus(ctx, TaskStatusWorking)
	}
}

// setStatus changes a task's status unless it has ended.
func (r *taskRun) setStatus(ctx context.Context, status TaskStatus) {
	r.updateOrLog(context.WithoutCancel(ctx), func(t *DetailedTask) bool {
		if t.Terminal() || t.Status == status {
			return false
		}
		t.Status = status
		return true
	})
}

// legacyTask is the 2025-11-25 form of a task's state.
func legacyTask(t *DetailedTask) *Task {
	return &Task{
		TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt,
		TTL: t.TTLMs, PollInterval: t.PollIntervalMs,
	}
}

// getLegacyTask serves tasks/get of 2025-11-25.
func (ss *ServerSession) getLegacyTask(ctx context.Context, p *GetTaskParams) (*GetTaskResult, error) {
	t, err := ss.server.taskEngine().lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	lt := legacyTask(t)
	return &GetTaskResult{
		TaskID: lt.TaskID, Status: lt.Status, StatusMessage: lt.StatusMessage,
		CreatedAt: lt.CreatedAt, LastUpdatedAt: lt.LastUpdatedAt, TTL: lt.TTL, PollInterval: lt.PollInterval,
	}, nil
}

// cancelLegacyTask serves tasks/cancel of 2025-11-25: a task that ended
// already cannot be cancelled.
func (ss *ServerSession) cancelLegacyTask(ctx context.Context, p *CancelTaskParams) (*CancelTaskResult, error) {
	e := ss.server.taskEngine()
	t, err := e.lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	if t.Terminal() {
		return nil, newError(CodeInvalidParams, "Cannot cancel task: already in terminal status %q", t.Status)
	}
	if r := e.run(p.TaskID); r != nil {
		err = r.cancelTask(ctx)
	} else {
		c := t.clone()
		c.Status, c.InputRequests = TaskStatusCancelled, nil
		err = e.store.Put(ctx, c, taskExpiry(t))
	}
	if err != nil {
		return nil, newError(CodeInternalError, "cancelling task: %v", err)
	}
	if t, err = e.lookup(ctx, p.TaskID); err != nil {
		return nil, err
	}
	lt := legacyTask(t)
	return &CancelTaskResult{
		TaskID: lt.TaskID, Status: lt.Status, StatusMessage: lt.StatusMessage,
		CreatedAt: lt.CreatedAt, LastUpdatedAt: lt.LastUpdatedAt, TTL: lt.TTL, PollInterval: lt.PollInterval,
	}, nil
}

// legacyTaskWait is how often tasks/result looks at a running task.
const legacyTaskWait = 20 * time.Millisecond

// taskPayload serves tasks/result (2025-11-25): it waits until the task
// ends and returns what the tool call would have returned, its result or
// its error, with the task named in _meta.
func (ss *ServerSession) taskPayload(ctx context.Context, p *GetTaskPayloadParams) (*GetTaskPayloadResult, error) {
	e := ss.server.taskEngine()
	for {
		t, err := e.lookup(ctx, p.TaskID)
		if err != nil {
			return nil, err
		}
		switch t.Status {
		case TaskStatusCompleted:
			var res GetTaskPayloadResult
			if err := res.UnmarshalJSON(t.Result); err != nil {
				return nil, newError(CodeInternalError, "task %s: stored result: %v", t.TaskID, err)
			}
			res.ResultType = "" // a 2026-07-28 member
			res.Meta.RelatedTask = &RelatedTaskMetadata{TaskID: t.TaskID}
			return &res, nil
		case TaskStatusFailed:
			if t.Error != nil {
				return nil, t.Error
			}
			return nil, newError(CodeInternalError, "task %s failed: %s", t.TaskID, t.StatusMessage)
		case TaskStatusCancelled:
			return nil, newError(CodeInternalError, "task %s was cancelled", t.TaskID)
		}
		timer := time.NewTimer(legacyTaskWait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
	}
}

// byRevision makes the row of a method whose params are the same in
// 2025-11-25 and 2026-07-28 but whose result is not: perRequest serves
// requests with per-request metadata, handshake the others.
func byRevision[P, R1, R2 any](perRequest func(*ServerSession, context.Context, *P) (*R1, error), handshake func(*ServerSession, context.Context, *P) (*R2, error), spec methodSpec[ServerSession]) *methodInfo[ServerSession] {
	modern := requestMethod(perRequest, spec)
	legacy := requestMethod(handshake, spec)
	modern.handle = func(ctx context.Context, ss *ServerSession, params any) (any, error) {
		if ss.request == nil {
			return legacy.handle(ctx, ss, params)
		}
		return perRequestHandle(ctx, ss, params, perRequest)
	}
	return modern
}

// perRequestHandle runs the typed handler of a per-request method.
func perRequestHandle[P, R any](ctx context.Context, ss *ServerSession, params any, h func(*ServerSession, context.Context, *P) (*R, error)) (any, error) {
	res, err := h(ss, ctx, params.(*P))
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("handler returned no result")
	}
	return res, nil
}
