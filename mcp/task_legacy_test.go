package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of the tasks of protocol 2025-11-25 (task_legacy_server.go,
// task_legacy_client.go), served by the same tools as the tasks extension
// of 2026-07-28.

// legacyTaskClient connects a 2025-11-25 client that opted into tasks and
// has learnt the server's tools, so that CallTool asks for tasks.
func legacyTaskClient(t *testing.T, s *Server, asked *atomic.Int64) *ClientSession {
	t.Helper()
	opts := taskClientOptions(Version20251125, asked)
	opts.Capabilities.Elicitation = &ElicitationCapability{}
	cs := connectTasks(t, s, opts)
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestLegacyTasksCapability(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	for _, tt := range []struct {
		version string
		want    bool
	}{
		{Version20251125, true},
		{Version20250618, false},
	} {
		cs := connectTasks(t, s, &ClientOptions{ProtocolVersion: tt.version})
		tc := cs.ServerCapabilities().Tasks
		got := tc != nil && tc.List != nil && tc.Cancel != nil && tc.Requests != nil && tc.Requests.Tools != nil && tc.Requests.Tools.Call != nil
		if got != tt.want {
			t.Errorf("%s: tasks capability %+v, want declared %v", tt.version, tc, tt.want)
		}
	}
	plain := NewServer("plain", "v1", nil)
	plain.AddTools(echoTool())
	cs := connectTasks(t, plain, &ClientOptions{ProtocolVersion: Version20251125})
	if tc := cs.ServerCapabilities().Tasks; tc != nil {
		t.Errorf("a server without task tools declares tasks: %+v", tc)
	}
	// It ignores params.task, as a server without the capability must.
	res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, &CallToolOptions{Task: &TaskMetadata{}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Errorf("task-augmented call to a server without tasks: %+v, %v", res, err)
	}
}

// TestLegacyClientCallToolFollowsTask runs the tools of the tasks
// extension's own test for a 2025-11-25 client: the same server code gives
// the same results.
func TestLegacyClientCallToolFollowsTask(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	var asked atomic.Int64
	cs := legacyTaskClient(t, s, &asked)
	tests := []struct {
		tool, want string
		isError    bool
	}{
		{"wait", "released in ", false}, // TaskID is empty before 2026-07-28
		{"quick", "quick done", false},  // required: only as a task
		{"confirm", "accept true", false},
		{"pair", "First+Second", false},
		{"gather", "Hello, Name from ", false},
		{"toolerror", "the job failed", true},
		{"sync", "sync done", false},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), tt.tool, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; !strings.HasPrefix(got, tt.want) || res.IsError != tt.isError || res.ResultType != "" {
				t.Fatalf("result %q (isError %v, resultType %q), want %q", got, res.IsError, res.ResultType, tt.want)
			}
		})
	}
	if n := asked.Load(); n != 4 { // confirm: 1, pair: 2, gather: 1
		t.Fatalf("%d elicitations, want 4", n)
	}
	list, err := cs.ListTasks(context.Background(), nil)
	if err != nil || len(list.Tasks) != 6 { // every tool but sync ran as a task
		t.Fatalf("ListTasks: %+v, %v", list, err)
	}
	for _, task := range list.Tasks {
		want := TaskStatusCompleted
		if task.TaskID == list.Tasks[5].TaskID {
			want = TaskStatusFailed // toolerror: isError fails the task in 2025-11-25
		}
		if task.Status != want || task.TTL == nil || task.PollInterval == nil {
			t.Errorf("listed task %+v, want status %s", task, want)
		}
	}
}

// TestLegacyTaskInputRequired checks that a task whose handler asks the
// client is input_required until the answer comes, and that the request
// names the task in its _meta.
func TestLegacyTaskInputRequired(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	var cs *ClientSession
	var seen atomic.Value
	opts := &ClientOptions{
		ProtocolVersion: Version20251125,
		Capabilities:    &ClientCapabilities{Elicitation: &ElicitationCapability{}},
		ElicitationHandler: func(ctx context.Context, _ *ClientSession, p *ElicitParams) (*ElicitResult, error) {
			task, err := cs.GetTask(ctx, &GetTaskParams{TaskID: p.Meta.RelatedTask.TaskID})
			if err != nil {
				return nil, err
			}
			seen.Store(task.Status)
			return &ElicitResult{Action: ElicitActionAccept, Content: map[string]any{"confirm": true}}, nil
		},
	}
	cs = connectTasks(t, s, opts)
	res, err := cs.CallTool(context.Background(), "confirm", nil, &CallToolOptions{Task: &TaskMetadata{}})
	if err != nil || res.Content[0].Text != "accept true" {
		t.Fatalf("CallTool: %+v, %v", res, err)
	}
	if got := seen.Load(); got != TaskStatusInputRequired {
		t.Fatalf("status while the client answers: %v, want input_required", got)
	}
}

func TestLegacyTaskWire(t *testing.T) {
	s, release := taskTestServer(&TaskOptions{TTL: time.Minute, PollInterval: 5 * time.Millisecond})
	defer close(release)
	cs := connectTasks(t, s, &ClientOptions{ProtocolVersion: Version20251125})
	ctx := context.Background()
	task, long := checkLegacyTaskTTLs(ctx, t, cs)
	checkLegacyTaskCancel(ctx, t, cs, task)
	checkLegacyTaskPayloads(ctx, t, cs)

	// Tool-level negotiation: -32601 for a required tool without a task
	// and for a tool that does not support tasks.
	if _, err := cs.CallTool(ctx, "quick", nil, nil); rpcErrorCode(err) != CodeMethodNotFound {
		t.Fatalf("required task tool without a task: %v", err)
	}
	if _, err := cs.CallTool(ctx, "sync", nil, &CallToolOptions{Task: &TaskMetadata{}}); rpcErrorCode(err) != CodeMethodNotFound {
		t.Fatalf("task-augmented call of a tool without task support: %v", err)
	}

	// tasks/list pages through the session's tasks, oldest first.
	s.opts.PageSize = 2
	var ids []string
	p := &ListTasksParams{}
	for {
		page, err := cs.ListTasks(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range page.Tasks {
			ids = append(ids, task.TaskID)
		}
		if page.NextCursor == "" {
			break
		}
		p.Cursor = page.NextCursor
	}
	if len(ids) != 5 || ids[0] != task.TaskID || ids[1] != long.TaskID {
		t.Fatalf("listed %v", ids)
	}
	if _, err := cs.ListTasks(ctx, &ListTasksParams{Cursor: "not a cursor"}); rpcErrorCode(err) != CodeInvalidParams {
		t.Fatalf("tasks/list with a bad cursor: %v", err)
	}
	// Another session does not see them.
	other := connectTasks(t, s, &ClientOptions{ProtocolVersion: Version20251125})
	if page, err := other.ListTasks(ctx, nil); err != nil || len(page.Tasks) != 0 {
		t.Fatalf("another session's tasks/list: %+v, %v", page, err)
	}
}

// rpcErrorCode is the JSON-RPC error code of err, or 0 if it is not a
// JSON-RPC error.
func rpcErrorCode(err error) ErrorCode {
	var werr *JSONRPCError
	if errors.As(err, &werr) {
		return werr.Code
	}
	return 0
}

// checkLegacyTaskTTLs starts three "wait" tasks and checks that the
// requested ttl is honoured up to the server's TTL; it returns the first
// two tasks.
func checkLegacyTaskTTLs(ctx context.Context, t *testing.T, cs *ClientSession) (task, long *DetailedTask) {
	t.Helper()
	ttl := int64(30000)
	res, task, err := cs.StartToolCall(ctx, "wait", nil, &CallToolOptions{Task: &TaskMetadata{TTL: &ttl}})
	if err != nil || res != nil || task == nil || task.Status != TaskStatusWorking || *task.TTLMs != 30000 || *task.PollIntervalMs != 5 {
		t.Fatalf("StartToolCall: %+v, %+v, %v", res, task, err)
	}
	ttl = int64(time.Hour / time.Millisecond)
	_, long, err = cs.StartToolCall(ctx, "wait", nil, &CallToolOptions{Task: &TaskMetadata{TTL: &ttl}})
	if err != nil || *long.TTLMs != 60000 {
		t.Fatalf("StartToolCall with a long ttl: %+v, %v", long, err)
	}
	ttl = 1 << 62 // would overflow a time.Duration in nanoseconds
	if _, huge, err := cs.StartToolCall(ctx, "wait", nil, &CallToolOptions{Task: &TaskMetadata{TTL: &ttl}}); err != nil || *huge.TTLMs != 60000 {
		t.Fatalf("StartToolCall with a huge ttl: %+v, %v", huge, err)
	}
	return task, long
}

// checkLegacyTaskCancel checks that tasks/cancel answers the cancelled
// task, that a second one is refused, and that the tasks/* methods refuse
// an unknown task.
func checkLegacyTaskCancel(ctx context.Context, t *testing.T, cs *ClientSession, task *DetailedTask) {
	t.Helper()
	var cancelled CancelTaskResult
	if err := cs.Call(ctx, MethodCancelTask, &CancelTaskParams{TaskID: task.TaskID}, &cancelled); err != nil || cancelled.Status != TaskStatusCancelled || cancelled.TaskID != task.TaskID {
		t.Fatalf("tasks/cancel: %+v, %v", cancelled, err)
	}
	if _, err := cs.CancelTask(ctx, &CancelTaskParams{TaskID: task.TaskID}); rpcErrorCode(err) != CodeInvalidParams || !strings.Contains(err.Error(), "terminal status 'cancelled'") {
		t.Fatalf("tasks/cancel of a cancelled task: %v", err)
	}
	if _, err := cs.GetTaskPayload(ctx, &GetTaskPayloadParams{TaskID: task.TaskID}); rpcErrorCode(err) != CodeInvalidParams {
		t.Fatalf("tasks/result of a cancelled task: %v", err)
	}
	for _, m := range []string{MethodGetTask, MethodGetTaskPayload, MethodCancelTask} {
		if err := cs.Call(ctx, m, &GetTaskParams{TaskID: "nonexistent"}, &json.RawMessage{}); rpcErrorCode(err) != CodeInvalidParams {
			t.Errorf("%s of an unknown task: %v", m, err)
		}
	}
}

// checkLegacyTaskPayloads checks tasks/result of a task that ended with a
// protocol error (that error) and of a completed task (the result, with
// the related-task _meta).
func checkLegacyTaskPayloads(ctx context.Context, t *testing.T, cs *ClientSession) {
	t.Helper()
	var created CreateTaskResult
	if err := cs.Call(ctx, MethodCallTool, &CallToolParams{Name: "protocolerror", Task: &TaskMetadata{}}, &created); err != nil || created.Task == nil {
		t.Fatalf("task-augmented tools/call: %+v, %v", created, err)
	}
	_, err := cs.GetTaskPayload(ctx, &GetTaskPayloadParams{TaskID: created.Task.TaskID})
	var werr *JSONRPCError
	if !errors.As(err, &werr) || werr.Code != CodeInternalError || werr.Message != "the backend is down" {
		t.Fatalf("tasks/result of a failed task: %v", err)
	}
	if got, err := cs.GetTask(ctx, &GetTaskParams{TaskID: created.Task.TaskID}); err != nil || got.Status != TaskStatusFailed {
		t.Fatalf("tasks/get of a failed task: %+v, %v", got, err)
	}

	if err := cs.Call(ctx, MethodCallTool, &CallToolParams{Name: "quick", Task: &TaskMetadata{}}, &created); err != nil {
		t.Fatal(err)
	}
	payload, err := cs.GetTaskPayload(ctx, &GetTaskPayloadParams{TaskID: created.Task.TaskID})
	var out CallToolResult
	if err != nil || payload.Meta.RelatedTask == nil || payload.Meta.RelatedTask.TaskID != created.Task.TaskID || payload.Decode(&out) != nil || out.Content[0].Text != "quick done" {
		t.Fatalf("tasks/result: %+v, %v", payload, err)
	}
}

func TestLegacyTasksNotBefore20251125(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	cs := connectTasks(t, s, &ClientOptions{ProtocolVersion: Version20250618})
	ctx := context.Background()
	// params.task is not part of 2025-06-18: the call runs synchronously.
	res, err := cs.CallTool(ctx, "quick", nil, &CallToolOptions{Task: &TaskMetadata{}})
	if err != nil || res.Content[0].Text != "quick done" {
		t.Fatalf("tools/call: %+v, %v", res, err)
	}
	var werr *JSONRPCError
	if err := cs.Call(ctx, MethodGetTask, &GetTaskParams{TaskID: "x"}, &json.RawMessage{}); !errors.As(err, &werr) || werr.Code != CodeMethodNotFound {
		t.Fatalf("tasks/get at 2025-06-18: %v", err)
	}
	if _, err := cs.ListTasks(ctx, nil); !errors.Is(err, ErrNotSupported) {
		t.Fatalf("ListTasks at 2025-06-18: %v", err)
	}
}

// TestLegacyClientCancelsTask checks that a caller that gives up cancels
// the task, while polling and while waiting in tasks/result.
func TestLegacyClientCancelsTask(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	block := make(chan struct{})
	defer close(block)
	s.AddTools(&ServerTool{
		Tool: &Tool{Name: "stuck", InputSchema: json.RawMessage(`{"type":"object"}`), Execution: &ToolExecution{TaskSupport: TaskSupportOptional}},
		Handler: func(ctx context.Context, ss *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
			if _, err := ss.Elicit(ctx, nameForm("Name?")); err != nil {
				return nil, err
			}
			return nil, errors.New("unreachable")
		},
	})
	opts := &ClientOptions{
		ProtocolVersion: Version20251125,
		Capabilities:    &ClientCapabilities{Elicitation: &ElicitationCapability{}},
		ElicitationHandler: func(ctx context.Context, _ *ClientSession, _ *ElicitParams) (*ElicitResult, error) {
			select { // the user never answers
			case <-block:
			case <-ctx.Done():
			}
			return nil, context.Canceled
		},
	}
	cs := connectTasks(t, s, opts)
	ctx := context.Background()
	for _, tool := range []string{"wait", "stuck"} {
		t.Run(tool, func(t *testing.T) {
			_, task, err := cs.StartToolCall(ctx, tool, nil, &CallToolOptions{Task: &TaskMetadata{}})
			if err != nil || task == nil {
				t.Fatal(task, err)
			}
			if tool == "stuck" {
				waitUntil(t, func() bool {
					got, err := cs.GetTask(ctx, &GetTaskParams{TaskID: task.TaskID})
					return err == nil && got.Status == TaskStatusInputRequired
				})
			}
			cctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
			defer cancel()
			if _, err := cs.AwaitToolTask(cctx, task.TaskID); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("AwaitToolTask past its deadline: %v", err)
			}
			got, err := cs.GetTask(ctx, &GetTaskParams{TaskID: task.TaskID})
			if err != nil || got.Status != TaskStatusCancelled {
				t.Fatalf("abandoned task: %+v, %v", got, err)
			}
			if _, err := cs.AwaitToolTask(ctx, task.TaskID); !errors.Is(err, ErrTaskCancelled) {
				t.Fatalf("AwaitToolTask of a cancelled task: %v", err)
			}
		})
	}
}

// TestLegacyClientRefusesUnfollowableTask checks that a CreateTaskResult
// the client cannot follow is an error, never an empty result.
func TestLegacyClientRefusesUnfollowableTask(t *testing.T) {
	s := NewServer("rogue", "v1", nil)
	s.AddTools(echoTool())
	s.AddPrompts(&ServerPrompt{Prompt: &Prompt{Name: "p"}, Handler: func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) {
		return &GetPromptResult{}, nil
	}})
	s.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if method == MethodCallTool || method == MethodGetPrompt {
				return &CreateTaskResult{Task: &Task{TaskID: "t1", Status: TaskStatusWorking}}, nil
			}
			return next(ctx, ss, method, params)
		}
	})
	ctx := context.Background()
	for _, tt := range []struct {
		version, method, want string
	}{
		{Version20250618, MethodCallTool, "protocol 2025-06-18 has no tasks"},
		{Version20251125, MethodGetPrompt, "which this request cannot have"},
	} {
		cs := connectTasks(t, s, &ClientOptions{ProtocolVersion: tt.version})
		var err error
		if tt.method == MethodCallTool {
			_, err = cs.CallTool(ctx, "echo", map[string]any{"text": "x"}, nil)
		} else {
			_, err = cs.GetPrompt(ctx, &GetPromptParams{Name: "p"})
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s answered with a task: %v, want %q", tt.version, tt.method, err, tt.want)
		}
	}
}

// TestLegacyTasksOverHTTP runs a task whose handler asks the client over
// a legacy streamable HTTP session, where the request travels on the
// stream of tasks/result, and cancels one.
func TestLegacyTasksOverHTTP(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return s }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	var asked atomic.Int64
	opts := taskClientOptions(Version20251125, &asked)
	opts.Capabilities.Elicitation = &ElicitationCapability{}
	cs, err := NewClient("c", "v1", opts).Connect(context.Background(), NewStreamableClientTransport(srv.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tool := range []string{"confirm", "pair"} {
		res, err := cs.CallTool(context.Background(), tool, nil, &CallToolOptions{Task: &TaskMetadata{}})
		if err != nil || res.IsError {
			t.Fatalf("%s over HTTP: %+v, %v", tool, res, err)
		}
	}
	if n := asked.Load(); n != 3 {
		t.Fatalf("%d elicitations, want 3", n)
	}
}

// TestLegacyTaskRequestsOnResultStream checks the wire over streamable
// HTTP: with no GET stream open, the handler's request waits, with the
// task input_required, for tasks/result, whose SSE stream then carries the
// request (with the related-task _meta) and, once answered, the result.
func TestLegacyTaskRequestsOnResultStream(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return s }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	c := &rawClient{t: t, url: srv.URL}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	readMessages(t, resp)
	c.sid, c.version = resp.Header.Get(headerSessionID), Version20251125
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil).Body.Close()

	msgs := readMessages(t, c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","task":{}}}`, nil))
	if len(msgs) != 1 {
		t.Fatalf("tools/call: %v", msgs)
	}
	created, _ := msgs[0]["result"].(map[string]any)
	task, _ := created["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if id == "" || task["status"] != "working" {
		t.Fatalf("tools/call: %v", msgs)
	}
	waitUntil(t, func() bool {
		m := readMessages(t, c.post(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"`+id+`"}}`, nil))
		res, _ := m[0]["result"].(map[string]any)
		return res["status"] == "input_required"
	})
	resp = c.post(`{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"`+id+`"}}`, nil)
	defer resp.Body.Close()
	r := newSSEReader(resp.Body, 0)
	next := func() map[string]any {
		for {
			ev, err := r.Next()
			if err != nil {
				t.Fatalf("tasks/result stream: %v", err)
			}
			if len(ev.Data) > 0 {
				return decodeMap(t, ev.Data)
			}
		}
	}
	req := next()
	params, _ := req["params"].(map[string]any)
	meta, _ := params["_meta"].(map[string]any)
	related, _ := meta[MetaKeyRelatedTask].(map[string]any)
	if req["method"] != MethodElicit || related["taskId"] != id {
		t.Fatalf("first message on the tasks/result stream: %v", req)
	}
	answer := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"action":"accept","content":{"confirm":true}}}`, req["id"]), nil)
	answer.Body.Close()
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("answer: %s", answer.Status)
	}
	final := next()
	res, _ := final["result"].(map[string]any)
	meta, _ = res["_meta"].(map[string]any)
	related, _ = meta[MetaKeyRelatedTask].(map[string]any)
	if final["id"] != float64(4) || resultText(final) != "accept true" || related["taskId"] != id {
		t.Fatalf("tasks/result: %v", final)
	}
}

// TestLegacyTaskStatusNotifications checks that the session that created
// a task hears of each of its status changes, without related-task _meta,
// through a notification method the client adds.
func TestLegacyTaskStatusNotifications(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	var mu sync.Mutex
	seen := map[TaskStatus]bool{}
	var tagged atomic.Bool
	c := NewClient("c", "v1", &ClientOptions{
		ProtocolVersion: Version20251125,
		Capabilities:    &ClientCapabilities{Elicitation: &ElicitationCapability{}},
		ElicitationHandler: func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error) {
			return &ElicitResult{Action: ElicitActionAccept, Content: map[string]any{"confirm": true}}, nil
		},
	})
	c.AddMethods(NewClientNotification(NotificationTaskStatus, func(_ context.Context, _ *ClientSession, p *TaskStatusParams) {
		mu.Lock()
		defer mu.Unlock()
		seen[p.Status] = true
		if p.Meta.RelatedTask != nil {
			tagged.Store(true)
		}
	}, nil))
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if _, err := cs.CallTool(context.Background(), "confirm", nil, &CallToolOptions{Task: &TaskMetadata{}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return seen[TaskStatusInputRequired] && seen[TaskStatusWorking] && seen[TaskStatusCompleted]
	})
	if tagged.Load() {
		t.Error("a status notification carries related-task _meta")
	}
}

// TestLegacyTasksConcurrent runs many 2025-11-25 tasks at once on one
// session, each asking the client twice, and cancels some midway.
func TestLegacyTasksConcurrent(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	var asked atomic.Int64
	cs := legacyTaskClient(t, s, &asked)
	const n = 16
	errs := make(chan error, n)
	for i := range n {
		go func() {
			ctx := context.Background()
			if i%4 == 3 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Millisecond)
				defer cancel()
			}
			res, err := cs.CallTool(ctx, "pair", nil, nil)
			switch {
			case i%4 == 3 && err != nil && !errors.Is(err, context.DeadlineExceeded):
				errs <- fmt.Errorf("call %d: %v", i, err)
			case i%4 != 3 && (err != nil || res.Content[0].Text != "First+Second"):
				errs <- fmt.Errorf("call %d: %+v, %v", i, res, err)
			default:
				errs <- nil
			}
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	list, err := cs.ListTasks(context.Background(), nil)
	if err != nil || len(list.Tasks) == 0 {
		t.Fatalf("ListTasks: %+v, %v", list, err)
	}
	waitUntil(t, func() bool {
		list, err := cs.ListTasks(context.Background(), nil)
		if err != nil {
			return false
		}
		for _, task := range list.Tasks {
			if task.Status != TaskStatusCompleted && task.Status != TaskStatusCancelled {
				return false
			}
		}
		return true
	})
}
