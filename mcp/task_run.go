package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// The phases of a taskRun.
const (
	runPending   = iota // the call is still synchronous (HandlerStartsTask, before StartTask)
	runStarted          // the call is a task
	runAbandoned        // the request ended before the task started
	runSync             // the handler returned before the task started
)

// A taskRun is one tools/call whose handler runs, or may come to run, as a
// task: the task's current state and the handler's open input requests.
type taskRun struct {
	e       *taskEngine
	server  *Server
	id      string
	expires time.Time
	cancel  context.CancelFunc // cancels the handler's context
	started chan struct{}      // closed when the task starts

	mu      sync.Mutex
	phase   int
	state   DetailedTask
	created *DetailedTask            // the CreateTaskResult, once started
	waiting map[string]*pendingInput // the handler's unanswered input requests
	issued  map[string]bool          // every input key used, answered or not
	asked   int                      // input requests made, for positional keys

	// notifyMu orders the stores and notifications of successive states:
	// it is taken before mu is released.
	notifyMu sync.Mutex

	// done is closed when the task reaches a terminal state.
	done     chan struct{}
	doneOnce sync.Once

	// legacy is set for a task of 2025-11-25 (legacyRun): its handler
	// asks with server-to-client requests, and its changes go to owner.
	legacy legacyRun
}

// A pendingInput is an input request a task's handler waits on.
type pendingInput struct {
	req    *InputRequest
	answer chan json.RawMessage // buffered: receives the one answer
}

// a toolOutcome is what a tool handler returned.
type toolOutcome struct {
	res *CallToolResult
	err error
}

// newRun prepares the run of a tool call that may become a task; ctx is the
// request's context and ttl the task's lifetime (zero means the server's).
// It returns the context the handler runs with: it keeps the request's
// values but not its cancellation, and ends when the task is cancelled or
// expires.
func (e *taskEngine) newRun(ctx context.Context, s *Server, ttlD time.Duration) (*taskRun, context.Context) {
	now := time.Now()
	if ttlD <= 0 || ttlD > e.ttl {
		ttlD = e.ttl
	}
	ttl, poll := ttlD.Milliseconds(), e.poll.Milliseconds()
	r := &taskRun{
		e: e, server: s, id: e.newID(), expires: now.Add(ttlD),
		started: make(chan struct{}), done: make(chan struct{}),
		waiting: make(map[string]*pendingInput),
		issued:  make(map[string]bool),
	}
	r.state = DetailedTask{
		TaskID: r.id, Status: TaskStatusWorking,
		CreatedAt: taskTimestamp(now), LastUpdatedAt: taskTimestamp(now),
		TTLMs: &ttl, PollIntervalMs: &poll,
	}
	hctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), r.expires)
	r.cancel = cancel
	go func() { // the handler ends with the server
		select {
		case <-s.shutdown:
			cancel()
		case <-hctx.Done():
		}
	}()
	return r, hctx
}

// taskTimestamp formats t as the ISO 8601 timestamps of tasks.
func taskTimestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// start makes the call a task: it stores the task, so that tasks/get finds
// it, before anything tells the client about it. asked is the number of
// input requests the handler made before, as input-required results.
func (r *taskRun) start(ctx context.Context, asked int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.phase {
	case runStarted:
		return nil
	case runAbandoned, runSync:
		return errors.New("mcp: StartTask: the request has ended")
	}
	snap := r.state.clone()
	if err := r.e.store.Put(ctx, snap, r.expires); err != nil {
		return fmt.Errorf("mcp: creating task: %w", err)
	}
	r.e.register(r)
	r.asked = asked
	r.phase = runStarted
	r.created = snap.clone()
	r.created.ResultType = "task"
	close(r.started)
	return nil
}

// running reports whether the call has become a task.
func (r *taskRun) running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.phase == runStarted
}

// abandon gives up a call that has not become a task, because its request
// ended.
func (r *taskRun) abandon() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.phase == runPending {
		r.phase = runAbandoned
		r.cancel()
	}
}

// execute runs the handler. If the call has not become a task when the
// handler returns, the outcome goes to sync, for the request to answer
// with; otherwise it ends the task.
func (r *taskRun) execute(ctx context.Context, ss *ServerSession, tool *ServerTool, p *CallToolParams, sync chan<- toolOutcome) {
	defer r.cancel()
	res, err := invokeTool(ctx, ss, tool, p)
	r.mu.Lock()
	if r.phase != runStarted {
		r.phase = runSync
		r.mu.Unlock()
		sync <- toolOutcome{res, err}
		return
	}
	r.mu.Unlock()
	r.finish(context.WithoutCancel(ctx), ctx.Err(), res, err)
	r.doneOnce.Do(func() { close(r.done) }) // even if the final state was not stored
	r.e.forget(r.id)
}

// invokeTool runs a tool's handler as callTool does, and turns a panic into
// an internal error: a task's handler runs on a goroutine of its own.
func invokeTool(ctx context.Context, ss *ServerSession, tool *ServerTool, p *CallToolParams) (res *CallToolResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			_ = panicError(ss.server.logger(), MethodCallTool+" "+p.Name, v) // logged; the task's error reports it
			res, err = nil, newError(CodeInternalError, "tool %q failed: panic: %v", p.Name, v)
		}
	}()
	res, err = tool.Handler(withToolRequest(ctx, ss, p), ss, p)
	if err != nil {
		var werr *JSONRPCError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, errInputRequired), errors.As(err, &werr):
			return nil, err
		}
		return &CallToolResult{Content: []*Content{NewTextContent(err.Error())}, IsError: true}, nil
	}
	if res == nil {
		res = &CallToolResult{}
	}
	if res.Content == nil {
		res.Content = []*Content{}
	}
	return res, nil
}

// finish records the handler's outcome as the task's final state, unless
// the task ended already (cancelled). ctxErr is why the handler's context
// ended, if it did.
func (r *taskRun) finish(ctx context.Context, ctxErr error, res *CallToolResult, err error) {
	final := func(t *DetailedTask, werr *JSONRPCError) {
		t.Status, t.StatusMessage, t.Error, t.InputRequests = TaskStatusFailed, werr.Message, werr, nil
	}
	r.updateOrLog(ctx, func(t *DetailedTask) bool {
		if t.Terminal() {
			return false
		}
		var werr *JSONRPCError
		switch {
		case err == nil:
			c := *res
			if !r.legacy.on {
				c.ResultType = "complete"
			}
			raw, merr := strictjson.Marshal(&c)
			if merr != nil {
				final(t, newError(CodeInternalError, "encoding the tool's result: %v", merr))
				return true
			}
			t.Status, t.Result, t.InputRequests = TaskStatusCompleted, raw, nil
			if r.legacy.on && res.IsError { // 2025-11-25: a tool that failed fails its task
				t.Status, t.StatusMessage = TaskStatusFailed, "Tool execution failed: "+firstText(res)
			}
		case errors.As(err, &werr):
			final(t, werr)
		case errors.Is(ctxErr, context.DeadlineExceeded):
			final(t, newError(CodeInternalError, "the task expired before its handler finished"))
		case ctxErr != nil: // not cancelled by the client, which ends the task itself
			final(t, newError(CodeInternalError, "the server shut down before the task finished"))
		case errors.Is(err, errInputRequired):
			final(t, newError(CodeInternalError, "the tool asked for input through an input-required result after its task started"))
		default:
			final(t, newError(CodeInternalError, "%v", err))
		}
		return true
	})
}

// update applies change to the task's state, stores the new state and
// tells the listeners that follow the task. change runs with the run's
// lock held and returns false to leave the state as it is.
func (r *taskRun) update(ctx context.Context, change func(*DetailedTask) bool) error {
	r.mu.Lock()
	if !change(&r.state) {
		r.mu.Unlock()
		return nil
	}
	r.state.LastUpdatedAt = taskTimestamp(time.Now())
	snap := r.state.clone()
	r.notifyMu.Lock()
	r.mu.Unlock()
	defer r.notifyMu.Unlock()
	if err := r.e.store.Put(ctx, snap, r.expires); err != nil {
		return fmt.Errorf("mcp: storing task %s: %w", r.id, err)
	}
	if snap.Terminal() {
		r.doneOnce.Do(func() { close(r.done) })
	}
	r.server.publishTask(ctx, snap)
	if r.legacy.on {
		r.notifyStatus(ctx, snap) // task_legacy_server.go
	}
	return nil
}

// updateOrLog is update for changes no caller waits on: a failure to
// store the task is logged.
func (r *taskRun) updateOrLog(ctx context.Context, change func(*DetailedTask) bool) {
	if err := r.update(ctx, change); err != nil {
		r.server.logger().Error("mcp: task state lost", "task", r.id, "error", err)
	}
}

// syncInputsLocked sets the task's input requests and status from the
// requests the handler waits on.
func (r *taskRun) syncInputsLocked(t *DetailedTask) {
	if r.legacy.on {
		t.Status = TaskStatusWorking
		if r.legacy.asking > 0 {
			t.Status = TaskStatusInputRequired
		}
		return
	}
	if len(r.waiting) == 0 {
		t.Status, t.InputRequests = TaskStatusWorking, nil
		return
	}
	t.Status = TaskStatusInputRequired
	t.InputRequests = make(map[string]*InputRequest, len(r.waiting))
	for k, pi := range r.waiting {
		t.InputRequests[k] = pi.req
	}
}

// ask makes an input request of a task's handler: the task is
// input_required until tasks/update answers it. Keys are unique over the
// task's life.
func (r *taskRun) ask(ctx context.Context, key, method string, params, result any) error {
	pi := &pendingInput{req: &InputRequest{Method: method, Params: params}, answer: make(chan json.RawMessage, 1)}
	var refused error
	err := r.update(ctx, func(t *DetailedTask) bool {
		if t.Terminal() {
			refused = fmt.Errorf("mcp: task %s has ended (%s)", r.id, t.Status)
			return false
		}
		r.asked++
		if key == "" {
			key = "input-" + strconv.Itoa(r.asked)
		}
		if r.issued[key] {
			refused = fmt.Errorf("mcp: input key %q was used before in task %s; each input request of a task needs a key of its own", key, r.id)
			return false
		}
		r.issued[key] = true
		r.waiting[key] = pi
		r.syncInputsLocked(t)
		return true
	})
	if refused != nil {
		return refused
	}
	if err != nil {
		r.withdraw(context.WithoutCancel(ctx), key)
		return err
	}
	select {
	case raw := <-pi.answer:
		if err := strictjson.Unmarshal(raw, result); err != nil {
			return newError(CodeInvalidParams, "inputResponses[%q] is not a valid %s result: %v", key, method, err)
		}
		return nil
	case <-ctx.Done():
		r.withdraw(context.WithoutCancel(ctx), key)
		return ctx.Err()
	}
}

// withdraw removes an input request the handler no longer waits on.
func (r *taskRun) withdraw(ctx context.Context, key string) {
	r.updateOrLog(ctx, func(t *DetailedTask) bool {
		if _, ok := r.waiting[key]; !ok {
			return false
		}
		delete(r.waiting, key)
		if t.Terminal() {
			return false
		}
		r.syncInputsLocked(t)
		return true
	})
}

// answer delivers the answers of tasks/update to the input requests they
// are keyed to. Keys that are not outstanding are ignored; an answer that
// is not a valid result of its request refuses the whole update.
func (r *taskRun) answer(ctx context.Context, responses map[string]json.RawMessage) error {
	var invalid error
	err := r.update(ctx, func(t *DetailedTask) bool {
		if t.Terminal() {
			return false
		}
		keys := make([]string, 0, len(responses))
		for k := range responses {
			if r.waiting[k] != nil {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := checkAnswer(r.waiting[k].req.Method, responses[k]); err != nil {
				invalid = newError(CodeInvalidParams, "inputResponses[%q] is not a valid %s result: %v", k, r.waiting[k].req.Method, err)
				return false
			}
		}
		if len(keys) == 0 {
			return false
		}
		for _, k := range keys {
			r.waiting[k].answer <- responses[k]
			delete(r.waiting, k)
		}
		r.syncInputsLocked(t)
		return true
	})
	if invalid != nil {
		return invalid
	}
	return err
}

// checkAnswer checks that raw is a valid result of an input request.
func checkAnswer(method string, raw json.RawMessage) error {
	var v any
	switch method {
	case MethodElicit:
		v = new(ElicitResult)
	case MethodCreateMessage:
		v = new(CreateMessageResult)
	case MethodListRoots:
		v = new(ListRootsResult)
	default:
		v = new(map[string]json.RawMessage)
	}
	if i := firstNonSpace(raw); i < 0 || raw[i] != '{' {
		return errors.New("not a JSON object")
	}
	return strictjson.Unmarshal(raw, v)
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return i
		}
	}
	return -1
}

// cancelTask ends the task as cancelled and cancels its handler's context;
// whatever the handler returns afterwards is discarded.
func (r *taskRun) cancelTask(ctx context.Context) error {
	err := r.update(ctx, func(t *DetailedTask) bool {
		if t.Terminal() {
			return false
		}
		t.Status, t.StatusMessage, t.InputRequests = TaskStatusCancelled, "The task was cancelled by the client.", nil
		return true
	})
	r.cancel()
	return err
}
