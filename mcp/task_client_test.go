package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of the client side of the tasks extension, against the SDK's own
// server over in-memory and HTTP transports.

// taskClientOptions declares the tasks extension and answers elicitations
// with {confirm: true} (counting them in *asked).
func taskClientOptions(version string, asked *atomic.Int64) *ClientOptions {
	return &ClientOptions{
		ProtocolVersion: version,
		Capabilities:    &ClientCapabilities{Extensions: map[string]any{TasksExtension: map[string]any{}}},
		ElicitationHandler: func(_ context.Context, _ *ClientSession, p *ElicitParams) (*ElicitResult, error) {
			if asked != nil {
				asked.Add(1)
			}
			return &ElicitResult{Action: ElicitActionAccept, Content: map[string]any{"confirm": true, "name": strings.TrimSuffix(p.Message, "?")}}, nil
		},
	}
}

// connectTasks connects a client with opts to s over in-memory transports.
func connectTasks(t *testing.T, s *Server, opts *ClientOptions) *ClientSession {
	t.Helper()
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", opts).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

var fastTasks = &TaskOptions{PollInterval: 2 * time.Millisecond}

func TestClientCallToolFollowsTask(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	var asked atomic.Int64
	cs := connectTasks(t, s, taskClientOptions("", &asked))
	tests := []struct {
		tool, want string
		isError    bool
	}{
		{"wait", "released in ", false}, // the task id follows
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
			if got := res.Content[0].Text; !strings.HasPrefix(got, tt.want) || res.IsError != tt.isError || res.ResultType != "complete" {
				t.Fatalf("result %q (isError %v, resultType %q), want %q", got, res.IsError, res.ResultType, tt.want)
			}
		})
	}
	if n := asked.Load(); n != 4 { // confirm: 1, pair: 2, gather: 1
		t.Fatalf("%d elicitations, want 4", n)
	}
}

func TestClientTaskErrors(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	defer close(release)
	cs := connectTasks(t, s, taskClientOptions("", nil))
	ctx := context.Background()

	_, err := cs.CallTool(ctx, "protocolerror", nil, nil)
	var werr *JSONRPCError
	if !errors.As(err, &werr) || werr.Code != CodeInternalError || werr.Message != "the backend is down" {
		t.Fatalf("failed task: %v", err)
	}

	// A caller that gives up cancels the task.
	_, task, err := cs.StartToolCall(ctx, "wait", nil, nil)
	if err != nil || task == nil {
		t.Fatalf("StartToolCall: %v, %v", task, err)
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
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
	if _, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "nonexistent"}); !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
		t.Fatalf("GetTask of an unknown task: %v", err)
	}
}

func TestClientStartAndAwaitTask(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	cs := connectTasks(t, s, taskClientOptions("", nil))
	ctx := context.Background()
	res, task, err := cs.StartToolCall(ctx, "wait", nil, nil)
	if err != nil || res != nil || task == nil || task.ResultType != "task" || task.Status != TaskStatusWorking {
		t.Fatalf("StartToolCall: %+v, %+v, %v", res, task, err)
	}
	close(release)
	// A later session can wait for the task by its id.
	other := connectTasks(t, s, taskClientOptions("", nil))
	res, err = other.AwaitToolTask(ctx, task.TaskID)
	if err != nil || res.Content[0].Text != "released in "+task.TaskID {
		t.Fatalf("AwaitToolTask: %+v, %v", res, err)
	}
	got, err := cs.GetTask(ctx, &GetTaskParams{TaskID: task.TaskID})
	if err != nil || !got.Terminal() || got.ResultType != "complete" {
		t.Fatalf("GetTask: %+v, %v", got, err)
	}
	if r, err := got.CallToolResult(); err != nil || r.Content[0].Text != res.Content[0].Text {
		t.Fatalf("DetailedTask.CallToolResult: %+v, %v", r, err)
	}
	if _, err := cs.CancelTask(ctx, &CancelTaskParams{TaskID: task.TaskID}); err != nil {
		t.Fatalf("CancelTask of a finished task: %v", err)
	}
	// A synchronous tool gives its result, and no task.
	res, task, err = cs.StartToolCall(ctx, "sync", nil, nil)
	if err != nil || task != nil || res.Content[0].Text != "sync done" {
		t.Fatalf("StartToolCall of a synchronous tool: %+v, %+v, %v", res, task, err)
	}
}

func TestClientWithoutTasks(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	ctx := context.Background()
	for _, version := range []string{"", Version20250618} { // 2025-11-25: task_legacy_test.go
		t.Run("version "+version, func(t *testing.T) {
			opts := taskClientOptions(version, nil)
			if version == "" {
				opts.Capabilities = nil // modern, without the extension
			}
			cs := connectTasks(t, s, opts)
			res, err := cs.CallTool(ctx, "wait", nil, nil)
			if err != nil || res.Content[0].Text != "released in " {
				t.Fatalf("task tool called synchronously: %+v, %v", res, err)
			}
			_, err = cs.CallTool(ctx, "quick", nil, nil)
			var werr *JSONRPCError
			switch {
			case version == "" && (!errors.As(err, &werr) || werr.Code != CodeMissingRequiredClientCapability):
				t.Fatalf("required task tool without the extension: %v", err)
			case version != "" && err != nil:
				// Before 2025-11-25 there are no tasks: the call runs
				// synchronously. (At 2025-11-25 a tool that requires a
				// task refuses a call that is not one: task_legacy_test.go.)
				t.Fatalf("required task tool in %s: %v", version, err)
			}
			if _, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "x"}); !errors.Is(err, ErrNotSupported) {
				t.Fatalf("GetTask: %v", err)
			}
		})
	}
}

func TestClientRefusesUnaskedTask(t *testing.T) {
	s := NewServer("rogue", "v1", nil)
	s.AddTools(&ServerTool{Tool: &Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
		return &CallToolResult{}, nil
	}})
	s.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if method == MethodCallTool {
				return &DetailedTask{ResultType: "task", TaskID: "t1", Status: TaskStatusWorking}, nil
			}
			return next(ctx, ss, method, params)
		}
	})
	cs := connectTasks(t, s, &ClientOptions{})
	if _, err := cs.CallTool(context.Background(), "t", nil, nil); err == nil || !strings.Contains(err.Error(), "did not declare") {
		t.Fatalf("a task the client did not ask for: %v", err)
	}
}

func TestTasksOverHTTP(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return s }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	ts := srv.URL
	cs, err := NewClient("c", "v1", taskClientOptions("", nil)).Connect(context.Background(), NewStreamableClientTransport(ts, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), "confirm", nil, nil)
	if err != nil || res.Content[0].Text != "accept true" {
		t.Fatalf("task over HTTP: %+v, %v", res, err)
	}
	// Mcp-Name mirrors the task id; a mismatch is refused.
	_, task, err := cs.StartToolCall(context.Background(), "quick", nil, nil)
	if err != nil || task == nil {
		t.Fatal(task, err)
	}
	c := &rawClient{t: t, url: ts}
	body := strings.Replace(modernCall(7, MethodGetTask, fmt.Sprintf(`"taskId":%q`, task.TaskID)), `/clientCapabilities":{}`, `/clientCapabilities":{"extensions":{"`+TasksExtension+`":{}}}`, 1)
	for _, tt := range []struct {
		name     string
		mcpName  string
		wantCode ErrorCode
	}{
		{"matching", task.TaskID, 0},
		{"mismatched", "another-task", CodeHeaderMismatch},
		{"missing", "", CodeHeaderMismatch},
	} {
		msgs := readMessages(t, c.post(body, modernHeaders(MethodGetTask, tt.mcpName)))
		if len(msgs) != 1 || errorCode(msgs[0]) != tt.wantCode {
			t.Fatalf("%s Mcp-Name: %v", tt.name, msgs)
		}
	}
}
