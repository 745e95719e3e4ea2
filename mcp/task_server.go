package mcp

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// taskEngine is a server's tasks extension state: its configuration and
// the tasks whose handlers run in this process.
type taskEngine struct {
	enabled sync.Once // the extension was turned on (enableTasks)

	once  sync.Once
	store TaskStore
	ttl   time.Duration
	poll  time.Duration
	newID func() string

	mu   sync.Mutex
	runs map[string]*taskRun // started tasks whose handler has not returned
}

// taskEngine returns the server's task engine, configured on first use.
func (s *Server) taskEngine() *taskEngine {
	e := &s.tasks
	e.once.Do(func() {
		var o TaskOptions
		if s.opts.Tasks != nil {
			o = *s.opts.Tasks
		}
		e.store, e.ttl, e.poll, e.newID = o.Store, o.TTL, o.PollInterval, o.NewTaskID
		if e.store == nil {
			e.store = NewMemoryTaskStore(nil)
		}
		if e.ttl <= 0 {
			e.ttl = DefaultTaskTTL
		}
		if e.poll <= 0 {
			e.poll = DefaultTaskPollInterval
		}
		if e.newID == nil {
			e.newID = randomTaskID
		}
	})
	return e
}

// randomTaskID returns 128 random bits in the form of a version 4 UUID.
func randomTaskID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails: it crashes the program instead
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func (e *taskEngine) register(r *taskRun) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runs == nil {
		e.runs = make(map[string]*taskRun)
	}
	e.runs[r.id] = r
}

func (e *taskEngine) forget(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.runs, id)
}

func (e *taskEngine) run(id string) *taskRun {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runs[id]
}

// lookup returns the stored state of a task, or the -32602 error of an
// unknown task.
func (e *taskEngine) lookup(ctx context.Context, id string) (*DetailedTask, error) {
	t, err := e.store.Get(ctx, id)
	switch {
	case errors.Is(err, ErrTaskNotFound):
		return nil, newError(CodeInvalidParams, "Failed to retrieve task: Task not found: %q", id)
	case err != nil:
		return nil, newError(CodeInternalError, "Failed to retrieve task: %v", err)
	}
	return t, nil
}

// callToolAsTask serves tools/call with the tasks extension. ok is false
// when the call is an ordinary synchronous one.
func (ss *ServerSession) callToolAsTask(ctx context.Context, p *CallToolParams) (res any, ok bool, err error) {
	if ss.request == nil {
		return nil, false, nil // 2025-11-25: callToolAsLegacyTask (task_legacy_server.go)
	}
	tool, found := ss.server.tools.get(p.Name)
	if !found {
		return nil, false, nil
	}
	support := taskSupportOf(tool.Tool)
	switch {
	case support == TaskSupportForbidden:
		return nil, false, nil
	case !declaresTasks(ss.ClientCapabilities()):
		if support == TaskSupportRequired {
			return nil, true, errMissingTasksExtension(fmt.Sprintf("tool %q runs only as a task", p.Name))
		}
		return nil, false, nil
	}
	if tool.HandlerStartsTask {
		res, err := ss.runUntilTask(ctx, tool, p)
		return res, true, err
	}
	t, err := ss.startToolTask(ctx, tool, p)
	if err != nil {
		return nil, true, err
	}
	return t, true, nil
}

// startToolTask creates the task of a tool call, then runs the handler in
// the background.
func (ss *ServerSession) startToolTask(ctx context.Context, tool *ServerTool, p *CallToolParams) (*DetailedTask, error) {
	e := ss.server.taskEngine()
	r, hctx := e.newRun(ctx, ss.server, 0)
	if err := r.start(context.WithoutCancel(ctx), 0); err != nil {
		r.cancel()
		return nil, newError(CodeInternalError, "%v", err)
	}
	go r.execute(hctx, r.session(ss), tool, p, make(chan toolOutcome, 1))
	return r.created, nil
}

// session returns the session a task's handler runs with: scoped to the
// request that created the task (its client capabilities and identity),
// with no stream to send notifications on, and asking through the task.
func (r *taskRun) session(ss *ServerSession) *ServerSession {
	tss := newScopedSession(ss.server, ss.request.meta, dropNotification)
	tss.parent = ss.parent
	tss.request.rc.id = ss.request.rc.id
	tss.request.input.active = true
	tss.request.input.task = r
	return tss
}

// dropNotification discards the progress and log notifications of a task's
// handler: the tasks extension has no stream to carry them.
func dropNotification(context.Context, string, any) error { return nil }

// runUntilTask runs the handler of a HandlerStartsTask tool on the
// request's own session: the request is answered with the handler's result
// (or an input-required result) if it returns first, or with the task if
// the handler calls StartTask first.
func (ss *ServerSession) runUntilTask(ctx context.Context, tool *ServerTool, p *CallToolParams) (any, error) {
	r, hctx := ss.server.taskEngine().newRun(ctx, ss.server, 0)
	ss.request.input.task = r
	sync := make(chan toolOutcome, 1)
	stop := context.AfterFunc(ctx, r.abandon)
	defer stop()
	go r.execute(hctx, ss, tool, p, sync)
	select {
	case o := <-sync:
		if o.err != nil {
			return nil, o.err
		}
		return o.res, nil
	case <-r.started:
		return r.created, nil
	}
}

// StartTask makes the running tool call a task, if it can be one, and
// answers the client's request with the task: from then on the handler
// runs in the background, and its asks (Elicit, CreateMessage, ListRoots)
// wait for the client's answers through tasks/update.
//
// It matters only in the handler of a tool whose ServerTool has
// HandlerStartsTask set: such a call runs synchronously, and may gather
// input through input-required results, until StartTask. Anywhere else it
// does nothing: the call is a task already, or cannot be one (the tool
// does not support tasks, the client did not declare the extension, or the
// protocol is older than 2026-07-28). It fails if input requests of the
// handler are still unanswered (return the error: the client gets them),
// or if the task cannot be stored.
func (ss *ServerSession) StartTask(ctx context.Context) error {
	if ss.request == nil || ss.request.input.task == nil {
		return nil
	}
	st := &ss.request.input
	st.mu.Lock()
	pending, asked := len(st.pending), st.asked
	st.mu.Unlock()
	if pending > 0 {
		return errInputRequired
	}
	r := st.task
	if r.running() {
		return nil
	}
	if err := r.start(context.WithoutCancel(ctx), asked); err != nil {
		return err
	}
	ss.request.notify = dropNotification // the request's stream is ending
	return nil
}

// TaskID returns the id of the task the handler runs as, or "" if the call
// is not a task. It is also "" in the handler of a task of protocol
// 2025-11-25, whose session is the client's whole session.
func (ss *ServerSession) TaskID() string {
	if ss.request == nil || ss.request.input.task == nil || !ss.request.input.task.running() {
		return ""
	}
	return ss.request.input.task.id
}

// SetTaskStatusMessage sets the statusMessage of the task the handler runs
// as, to tell the client how the work goes. It does nothing if the call is
// not a task.
func (ss *ServerSession) SetTaskStatusMessage(ctx context.Context, message string) error {
	r := legacyTaskOf(ctx)
	if r == nil {
		if ss.TaskID() == "" {
			return nil
		}
		r = ss.request.input.task
	}
	return r.update(context.WithoutCancel(ctx), func(t *DetailedTask) bool {
		if t.Terminal() || t.StatusMessage == message {
			return false
		}
		t.StatusMessage = message
		return true
	})
}

// requireTasks refuses a tasks/* request from a client that did not
// declare the extension.
func (ss *ServerSession) requireTasks(method string) error {
	if !declaresTasks(ss.ClientCapabilities()) {
		return errMissingTasksExtension(method + " needs the " + TasksExtension + " extension")
	}
	return nil
}

func (ss *ServerSession) getTask(ctx context.Context, p *GetTaskParams) (*DetailedTask, error) {
	if err := ss.requireTasks(MethodGetTask); err != nil {
		return nil, err
	}
	t, err := ss.server.taskEngine().lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	c := t.clone()
	c.Meta, c.ResultType = Meta{}, "complete"
	return c, nil
}

func (ss *ServerSession) updateTask(ctx context.Context, p *UpdateTaskParams) (*EmptyResult, error) {
	if err := ss.requireTasks(MethodUpdateTask); err != nil {
		return nil, err
	}
	e := ss.server.taskEngine()
	if _, err := e.lookup(ctx, p.TaskID); err != nil {
		return nil, err
	}
	if r := e.run(p.TaskID); r != nil && len(p.InputResponses) > 0 {
		if err := r.answer(ctx, p.InputResponses); err != nil {
			return nil, err
		}
	} else if len(p.InputResponses) > 0 {
		ss.server.forwardTask(ctx, BusTaskInput, p.TaskID, p.InputResponses) // event_bus.go
	}
	return &EmptyResult{}, nil
}

func (ss *ServerSession) cancelTask(ctx context.Context, p *CancelTaskParams) (*EmptyResult, error) {
	if err := ss.requireTasks(MethodCancelTask); err != nil {
		return nil, err
	}
	e := ss.server.taskEngine()
	t, err := e.lookup(ctx, p.TaskID)
	if err != nil {
		return nil, err
	}
	running := e.run(p.TaskID) != nil
	if err := e.cancel(ctx, t); err != nil {
		return nil, newError(CodeInternalError, "cancelling task: %v", err)
	}
	if !running && !t.Terminal() {
		ss.server.forwardTask(ctx, BusTaskCancel, p.TaskID, nil) // event_bus.go: the instance running it cancels it
	}
	return &EmptyResult{}, nil
}

// taskExpiry returns when a stored task expires: its creation plus its
// TTL, or zero for a task without limit.
func taskExpiry(t *DetailedTask) time.Time {
	created, err := time.Parse(time.RFC3339Nano, t.CreatedAt)
	if t.TTLMs == nil || err != nil {
		return time.Time{}
	}
	return created.Add(time.Duration(*t.TTLMs) * time.Millisecond)
}

// publishTask sends a task's new state to the subscriptions/listen streams
// that follow it.
func (s *Server) publishTask(ctx context.Context, t *DetailedTask) {
	s.forwardTask(ctx, BusTaskStatus, t.TaskID, t) // event_bus.go
	s.publishTaskLocal(ctx, t)
}

// publishTaskLocal sends a task's new state to this instance's listen
// streams that follow it.
func (s *Server) publishTaskLocal(ctx context.Context, t *DetailedTask) {
	for _, l := range s.listeners.matching(func(f *SubscriptionFilter) bool { return slices.Contains(f.TaskIDs, t.TaskID) }) {
		c := t.clone()
		c.ResultType = ""
		if err := l.send(ctx, NotificationTasks, c); err != nil && !errors.Is(err, ErrConnectionClosed) {
			s.logger().Warn("mcp: dropped notification", "method", NotificationTasks, "error", err)
		}
	}
}

// sendTaskStates sends a new listener the current state of each task it
// follows, so that no change made while it was being set up goes unseen.
// A task's state is read and sent while its changes wait, so that the
// listener never gets an older state after a newer one.
func (s *Server) sendTaskStates(ctx context.Context, l *listener) {
	e := s.taskEngine()
	for _, id := range l.filter.TaskIDs {
		r := e.run(id)
		if r != nil {
			r.notifyMu.Lock()
		}
		if t, err := e.store.Get(ctx, id); err == nil {
			c := t.clone()
			c.ResultType = ""
			if err := l.send(ctx, NotificationTasks, c); err != nil && !errors.Is(err, ErrConnectionClosed) {
				s.logger().Warn("mcp: dropped notification", "method", NotificationTasks, "error", err)
			}
		}
		if r != nil {
			r.notifyMu.Unlock()
		}
	}
}

// honouredTaskIDs returns the task ids of a subscriptions/listen filter
// the server agrees to send notifications/tasks for: those it knows. A
// client that did not declare the extension gets -32021.
func (ss *ServerSession) honouredTaskIDs(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if err := ss.requireTasks("notifications/tasks"); err != nil {
		return nil, err
	}
	e := ss.server.taskEngine()
	var out []string
	for _, id := range ids {
		if _, err := e.store.Get(ctx, id); err == nil && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// hasTaskTools reports whether any tool of the server supports tasks.
func (s *Server) hasTaskTools() bool {
	return slices.ContainsFunc(s.tools.all(), func(t *ServerTool) bool {
		return taskSupportOf(t.Tool) != TaskSupportForbidden
	})
}

// The tasks extension's methods (2026-07-28): tasks/get, tasks/update and
// tasks/cancel, made and added with the public API any extension uses.
// tasks/get and tasks/cancel keep the names of the 2025-11-25 core methods,
// with the same params, so they extend those methods to 2026-07-28.
var taskExtensionMethods = []*Method[ServerSession]{
	NewServerMethod(MethodGetTask, func(ctx context.Context, ss *ServerSession, p *GetTaskParams) (*DetailedTask, error) {
		return ss.getTask(ctx, p)
	}, &MethodOptions{Since: firstPerRequestMeta}),
	NewServerMethod(MethodUpdateTask, func(ctx context.Context, ss *ServerSession, p *UpdateTaskParams) (*EmptyResult, error) {
		return ss.updateTask(ctx, p)
	}, &MethodOptions{Since: firstPerRequestMeta}),
	NewServerMethod(MethodCancelTask, func(ctx context.Context, ss *ServerSession, p *CancelTaskParams) (*EmptyResult, error) {
		return ss.cancelTask(ctx, p)
	}, &MethodOptions{Since: firstPerRequestMeta}),
}

// enableTasks turns the tasks extension on, once: it declares it, with
// settings (nil for {}), and adds its methods with AddExtension.
func (s *Server) enableTasks(settings any) {
	s.tasks.enabled.Do(func() { s.AddExtension(TasksExtension, settings, taskExtensionMethods...) })
}

// declaredTasks turns the tasks extension on for a server whose
// ServerOptions declare it, with the settings declared there ({} if they
// are not a JSON object, as settings must be).
func (s *Server) declaredTasks() {
	if c := s.opts.Capabilities; c != nil && c.Extensions[TasksExtension] != nil {
		settings := c.Extensions[TasksExtension]
		if !isJSONObject(settings) {
			settings = nil
		}
		s.enableTasks(settings)
	}
}

// toolsAdded turns the tasks extension on when one of tools supports
// tasks: a program turns the extension on by adding such a tool. It stays
// on when the tools are removed, so that tasks already created can still
// be read and cancelled.
func (s *Server) toolsAdded(tools []*ServerTool) {
	if slices.ContainsFunc(tools, func(t *ServerTool) bool { return taskSupportOf(t.Tool) != TaskSupportForbidden }) {
		s.enableTasks(nil)
	}
}
