package mcp

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Tasks of protocol 2025-11-25, served from the same tools, TaskSupport
// declarations, TaskStore and TaskOptions as the tasks extension of
// 2026-07-28 (task_server.go). In 2025-11-25 the client asks for a task
// with params.task; the server answers with a CreateTaskResult and the
// client polls tasks/get, then reads the tool's result with tasks/result,
// which waits until the task ends. A task's handler asks the client with
// ordinary server-to-client requests carrying the related-task _meta; the
// task is input_required while one waits for its answer, and over
// streamable HTTP such requests travel on the stream of a pending
// tasks/result request (or on the GET stream).

// legacyRun is the 2025-11-25 part of a taskRun. Its fields other than on
// and owner are guarded by the taskRun's mu.
type legacyRun struct {
	on    bool
	owner *ServerSession // the session that created the task

	asking  int             // the handler's requests awaiting the client's answers
	stream  *responseStream // of the latest pending tasks/result request, if any
	changed chan struct{}   // closed and replaced when a tasks/result request comes
}

// legacyTaskKey is the context key of the taskRun whose handler runs with
// the context (2025-11-25 tasks).
type legacyTaskKey struct{}

// legacyTaskOf returns the 2025-11-25 task whose handler runs with ctx,
// or nil.
func legacyTaskOf(ctx context.Context) *taskRun {
	r, _ := ctx.Value(legacyTaskKey{}).(*taskRun)
	return r
}

// withoutLegacyTask returns ctx with no task, for messages about the task
// itself rather than of its handler.
func withoutLegacyTask(ctx context.Context) context.Context {
	if legacyTaskOf(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, legacyTaskKey{}, (*taskRun)(nil))
}

// legacyTasksCapability is the tasks capability a server with task tools
// declares at 2025-11-25.
func legacyTasksCapability() *ServerTasksCapability {
	return &ServerTasksCapability{
		List:     &TasksListCapability{},
		Cancel:   &TasksCancelCapability{},
		Requests: &ServerTaskRequests{Tools: &TaskToolRequests{Call: &TaskRequestCapability{}}},
	}
}

// legacyTaskCapabilities declares the tasks of 2025-11-25 in an initialize
// result at version, when a tool of the server supports tasks.
func (s *Server) legacyTaskCapabilities(caps *ServerCapabilities, version string) {
	if version == Version20251125 && caps.Tasks == nil && s.hasTaskTools() {
		caps.Tasks = legacyTasksCapability()
	}
}

// callToolAsLegacyTask serves a tools/call of the legacy era: a call with
// params.task of a tool that supports tasks, at 2025-11-25, becomes a
// task. ok is false when the call is an ordinary synchronous one: before
// 2025-11-25 tasks do not exist and params.task is ignored.
func (ss *ServerSession) callToolAsLegacyTask(ctx context.Context, p *CallToolParams) (res any, ok bool, err error) {
	if ss.request != nil {
		return nil, false, nil // 2026-07-28: the tasks extension (task_server.go)
	}
	tool, found := ss.server.tools.get(p.Name)
	if !found {
		return nil, false, nil
	}
	support := taskSupportOf(tool.Tool)
	if (p.Task == nil && support != TaskSupportRequired) || ss.ProtocolVersion() != Version20251125 {
		return nil, false, nil
	}
	switch {
	case p.Task == nil:
		return nil, true, newError(CodeMethodNotFound, "tool %q runs only as a task: call it with params.task", p.Name)
	case support == TaskSupportForbidden && !ss.server.hasTaskTools():
		// The server declares no tasks capability: params.task is ignored.
		return nil, false, nil
	case support == TaskSupportForbidden:
		return nil, true, newError(CodeMethodNotFound, "tool %q does not support task-augmented calls", p.Name)
	}
	e := ss.server.taskEngine()
	var ttl time.Duration // the requested ttl, if shorter than the server's
	if p.Task.TTL != nil && *p.Task.TTL > 0 && *p.Task.TTL < e.ttl.Milliseconds() {
		ttl = time.Duration(*p.Task.TTL) * time.Millisecond
	}
	r, hctx := e.newRun(ctx, ss.server, ttl)
	r.legacy = legacyRun{on: true, owner: ss.root(), changed: make(chan struct{})}
	if err := r.start(context.WithoutCancel(ctx), 0); err != nil {
		r.cancel()
		return nil, true, newError(CodeInternalError, "%v", err)
	}
	ss.root().legacyTasks.add(r.id)
	go r.execute(context.WithValue(hctx, legacyTaskKey{}, r), ss, tool, p, make(chan toolOutcome, 1))
	return &CreateTaskResult{Task: legacyTask(r.created)}, true, nil
}

// legacyTask returns the 2025-11-25 form of a task's state.
func legacyTask(t *DetailedTask) *Task {
	return &Task{
		TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt,
		TTL: t.TTLMs, PollInterval: t.PollIntervalMs,
	}
}

// requireLegacyTasks refuses a tasks/* request to a server that declared
// no tasks capability.
func (ss *ServerSession) requireLegacyTasks(method string) error {
	if !ss.server.hasTaskTools() {
		return newError(CodeMethodNotFound, "%s: this server does not support tasks", method)
	}
	return nil
}

// getLegacyTask serves tasks/get at 2025-11-25.
func (ss *ServerSession) getLegacyTask(ctx context.Context, p *GetTaskParams) (*GetTaskResult, error) {
	if err := ss.requireLegacyTasks(MethodGetTask); err != nil {
		return nil, err
	}
	t, err := ss.server.taskEngine().lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	return (*GetTaskResult)(legacyTaskFields(t)), nil
}

// taskFields has the members of Task, GetTaskResult and CancelTaskResult
// that are not _meta or resultType.
type taskFields struct {
	Meta          Meta       `json:"_meta,omitzero"`
	ResultType    string     `json:"resultType,omitempty"`
	TaskID        string     `json:"taskId"`
	Status        TaskStatus `json:"status"`
	StatusMessage string     `json:"statusMessage,omitempty"`
	CreatedAt     string     `json:"createdAt"`
	LastUpdatedAt string     `json:"lastUpdatedAt"`
	TTL           *int64     `json:"ttl"`
	PollInterval  *int64     `json:"pollInterval,omitzero"`
}

func legacyTaskFields(t *DetailedTask) *taskFields {
	return &taskFields{
		TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt,
		TTL: t.TTLMs, PollInterval: t.PollIntervalMs,
	}
}

// taskPayload serves tasks/result (2025-11-25): it waits until the task
// ends, then answers what the tools/call would have: its result, with the
// related-task _meta, or its error.
func (ss *ServerSession) taskPayload(ctx context.Context, p *GetTaskPayloadParams) (*GetTaskPayloadResult, error) {
	if err := ss.requireLegacyTasks(MethodGetTaskPayload); err != nil {
		return nil, err
	}
	e := ss.server.taskEngine()
	t, err := e.lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	if !t.Terminal() {
		if t, err = e.awaitTerminal(ctx, p.TaskID, streamFromContext(ctx)); err != nil {
			return nil, err
		}
	}
	switch {
	case t.Error != nil:
		return nil, t.Error
	case len(t.Result) == 0:
		return nil, newError(CodeInvalidParams, "Task %s has no result: it ended %s", t.TaskID, t.Status)
	}
	var res GetTaskPayloadResult
	if err := strictjson.UnmarshalTrusted(t.Result, &res); err != nil {
		return nil, newError(CodeInternalError, "decoding the stored result of task %s: %v", t.TaskID, err)
	}
	res.ResultType = "" // a task of 2026-07-28 stores resultType "complete"
	res.Meta.RelatedTask = &RelatedTaskMetadata{TaskID: t.TaskID}
	return &res, nil
}

// awaitTerminal waits until a task reaches a terminal state and returns
// that state. st is the stream of the tasks/result request that waits, on
// which the task's handler may send its requests meanwhile.
func (e *taskEngine) awaitTerminal(ctx context.Context, id string, st *responseStream) (*DetailedTask, error) {
	if r := e.run(id); r != nil {
		if r.legacy.on {
			defer r.addResultStream(st)()
		}
		select {
		case <-r.done:
			return e.lookup(ctx, id)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// The task runs in another process, or its handler has returned: poll
	// the store.
	tick := time.NewTicker(e.poll)
	defer tick.Stop()
	for {
		t, err := e.lookup(ctx, id)
		if err != nil || t.Terminal() {
			return t, err
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// addResultStream makes st the stream the task's handler sends its
// requests on, until the returned function is called.
func (r *taskRun) addResultStream(st *responseStream) (remove func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.legacy.stream = st
	close(r.legacy.changed)
	r.legacy.changed = make(chan struct{})
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.legacy.stream == st {
			r.legacy.stream = nil
		}
	}
}

// cancelLegacyTask serves tasks/cancel at 2025-11-25: the task's state
// after cancellation, or -32602 for a task that had ended already.
func (ss *ServerSession) cancelLegacyTask(ctx context.Context, p *CancelTaskParams) (*CancelTaskResult, error) {
	if err := ss.requireLegacyTasks(MethodCancelTask); err != nil {
		return nil, err
	}
	e := ss.server.taskEngine()
	t, err := e.lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	if !t.Terminal() {
		if err := e.cancel(ctx, t); err != nil {
			return nil, newError(CodeInternalError, "cancelling task: %v", err)
		}
		if t, err = e.lookup(ctx, p.TaskID); err != nil {
			return nil, err
		}
		if t.Status == TaskStatusCancelled {
			return (*CancelTaskResult)(legacyTaskFields(t)), nil
		}
	}
	return nil, newError(CodeInvalidParams, "Cannot cancel task: already in terminal status '%s'", t.Status)
}

// cancel ends a task as cancelled: through its run, if it runs here, or
// else in the store only.
func (e *taskEngine) cancel(ctx context.Context, t *DetailedTask) error {
	if r := e.run(t.TaskID); r != nil {
		return r.cancelTask(ctx)
	}
	if t.Terminal() {
		return nil
	}
	// Stored but not running here: its process is gone.
	c := t.clone()
	c.Status, c.InputRequests = TaskStatusCancelled, nil
	return e.store.Put(ctx, c, taskExpiry(t))
}

// listLegacyTasks serves tasks/list at 2025-11-25: the tasks this session
// created that the store still holds, oldest first.
func (ss *ServerSession) listLegacyTasks(ctx context.Context, p *ListTasksParams) (*ListTasksResult, error) {
	if err := ss.requireLegacyTasks(MethodListTasks); err != nil {
		return nil, err
	}
	after := uint64(0)
	if p.Cursor != "" {
		n, err := strconv.ParseUint(p.Cursor, 36, 64)
		if err != nil || n == 0 {
			return nil, newError(CodeInvalidParams, "tasks/list: invalid cursor %q", p.Cursor)
		}
		after = n
	}
	size := ss.server.opts.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	e := ss.server.taskEngine()
	idx := &ss.root().legacyTasks
	res := &ListTasksResult{Tasks: []*Task{}}
	var gone []string
	last := after
	for _, en := range idx.after(after) {
		if len(res.Tasks) == size {
			res.NextCursor = strconv.FormatUint(last, 36)
			break
		}
		last = en.seq
		t, err := e.store.Get(ctx, en.id)
		switch {
		case errors.Is(err, ErrTaskNotFound):
			gone = append(gone, en.id)
			continue
		case err != nil:
			return nil, newError(CodeInternalError, "Failed to list tasks: %v", err)
		}
		res.Tasks = append(res.Tasks, legacyTask(t))
	}
	idx.remove(gone)
	return res, nil
}

// maxSessionTasks bounds the task ids a session remembers for tasks/list;
// the oldest are forgotten first.
const maxSessionTasks = DefaultMaxTasks

// legacyTaskIndex is the tasks a legacy session created, for tasks/list.
type legacyTaskIndex struct {
	mu      sync.Mutex
	next    uint64
	entries []taskIndexEntry // by seq
}

type taskIndexEntry struct {
	seq uint64
	id  string
}

func (x *legacyTaskIndex) add(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.next++
	if len(x.entries) >= maxSessionTasks {
		x.entries = append(x.entries[:0:0], x.entries[len(x.entries)-maxSessionTasks+1:]...)
	}
	x.entries = append(x.entries, taskIndexEntry{x.next, id})
}

// after returns the entries whose seq is greater than seq.
func (x *legacyTaskIndex) after(seq uint64) []taskIndexEntry {
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, en := range x.entries {
		if en.seq > seq {
			return append([]taskIndexEntry(nil), x.entries[i:]...)
		}
	}
	return nil
}

// remove forgets tasks the store no longer holds.
func (x *legacyTaskIndex) remove(ids []string) {
	if len(ids) == 0 {
		return
	}
	drop := make(map[string]bool, len(ids))
	for _, id := range ids {
		drop[id] = true
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	kept := x.entries[:0]
	for _, en := range x.entries {
		if !drop[en.id] {
			kept = append(kept, en)
		}
	}
	clear(x.entries[len(kept):])
	x.entries = kept
}

// callClient sends a request of the task's handler to the client, with the
// related-task _meta: over streamable HTTP on the stream of a pending
// tasks/result request if there is one (else on the GET stream; with
// neither, it waits for a tasks/result request). The task is
// input_required meanwhile when the request is one of askClient's. The
// request goes with id, also when it is sent again after finding no stream
// (it never reached the client then).
func (r *taskRun) callClient(ctx context.Context, root *ServerSession, id jsonrpc2.ID, method string, params, result any) error {
	params = withRelatedTask(params, r.id)
	for {
		r.mu.Lock()
		st, changed := r.legacy.stream, r.legacy.changed
		r.mu.Unlock()
		// Never on the stream of the tools/call, which ends with the
		// CreateTaskResult: on that of tasks/result, else on the GET stream.
		raw, err := root.conn.CallWithID(withStream(ctx, st), id, method, params)
		switch {
		case errors.Is(err, errNoClientStream):
			select {
			case <-changed:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		case err != nil:
			return err
		}
		return decodeResult(raw, result)
	}
}

// askingFor marks the task input_required while its handler asks the
// client (until gotInput), and returns a copy of params naming the task in
// _meta, as 2025-11-25 asks of requests made for a task. askClient calls
// it before the sending middleware.
func askingFor[P any](r *taskRun, ctx context.Context, params *P) *P {
	r.inputWait(ctx, 1)
	p := cloneParams(params)
	if m := metaOf(p); m != nil {
		m.RelatedTask = &RelatedTaskMetadata{TaskID: r.id}
	}
	return p
}

// gotInput marks the task working again once its handler has its answers.
func (r *taskRun) gotInput(ctx context.Context) {
	r.inputWait(context.WithoutCancel(ctx), -1)
}

// inputWait counts a request of the handler that awaits (d = 1) or got (d
// = -1) the client's answer: the task is input_required while any does.
func (r *taskRun) inputWait(ctx context.Context, d int) {
	r.updateOrLog(withoutLegacyTask(ctx), func(t *DetailedTask) bool {
		r.legacy.asking += d
		if t.Terminal() {
			return false
		}
		prev := t.Status
		r.syncInputsLocked(t)
		return t.Status != prev
	})
}

// notifyStatus tells the session that created the task its new state:
// notifications/tasks/status, on a best effort basis (dropped over
// streamable HTTP when the client has no GET stream open).
func (r *taskRun) notifyStatus(ctx context.Context, t *DetailedTask) {
	ss := r.legacy.owner
	f := legacyTaskFields(t)
	p := &TaskStatusParams{
		TaskID: f.TaskID, Status: f.Status, StatusMessage: f.StatusMessage,
		CreatedAt: f.CreatedAt, LastUpdatedAt: f.LastUpdatedAt, TTL: f.TTL, PollInterval: f.PollInterval,
	}
	// On the GET stream over streamable HTTP, never on the stream of the
	// request that caused the change (a tools/call must end with its
	// CreateTaskResult alone).
	err := ss.notify(withStream(withoutLegacyTask(ctx), nil), NotificationTaskStatus, p)
	if err != nil && !errors.Is(err, ErrConnectionClosed) {
		ss.server.logger().Debug("mcp: dropped notification", "method", NotificationTaskStatus, "task", r.id, "error", err)
	}
}

// withRelatedTask returns a copy of params, a pointer to a params struct,
// whose _meta names the task. Other params are returned as they are.
func withRelatedTask(params any, taskID string) any {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return params
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	m := metaOf(c.Interface())
	if m == nil {
		return params
	}
	m.RelatedTask = &RelatedTaskMetadata{TaskID: taskID}
	return c.Interface()
}

// firstText returns the text of a result's first text content, for a
// task's status message.
func firstText(res *CallToolResult) string {
	for _, c := range res.Content {
		if c != nil && c.Type == "text" {
			return c.Text
		}
	}
	return "the tool reported an error"
}
