package mcp

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// TestLegacyTasksEndToEnd runs the tools of taskTestServer as 2025-11-25
// tasks with this package's client, which follows them.
func TestLegacyTasksEndToEnd(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	var asked atomic.Int64
	opts := taskClientOptions(Version20251125, &asked)
	opts.Capabilities = nil
	var wireLog lockedWriter
	var buf bytes.Buffer
	wireLog.w = &buf
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", opts).Connect(context.Background(), NewLoggingTransport(ct, &wireLog))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if caps := cs.ServerCapabilities().Tasks; caps == nil || caps.Requests == nil || caps.Requests.Tools == nil || caps.Requests.Tools.Call == nil {
		t.Fatalf("initialize declares tasks %+v", caps)
	}
	ctx := context.Background()
	for _, tt := range legacyTaskToolOutcomes {
		res, err := cs.CallTool(ctx, tt.tool, nil, &CallToolOptions{Task: &TaskMetadata{}})
		if tt.code != 0 {
			var werr *JSONRPCError
			if !errors.As(err, &werr) || werr.Code != tt.code {
				t.Errorf("%s: %v, want code %d", tt.tool, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.tool, err)
			continue
		}
		if res.IsError != tt.isError || len(res.Content) == 0 || !strings.HasPrefix(res.Content[0].Text, tt.want) {
			t.Errorf("%s: %+v, want %q (isError %v)", tt.tool, res, tt.want, tt.isError)
		}
	}
	// The wire: the call is answered with a task, the outcome comes from
	// tasks/result, tagged with the task.
	log := buf.String()
	for _, want := range []string{
		`"method":"tools/call","params":{"name":"quick","task":{}}`,
		`"result":{"task":{"taskId":"`,
		`"method":"tasks/result","params":{"taskId":"`,
		`"io.modelcontextprotocol/related-task":{"taskId":"`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("wire log lacks %s:\n%s", want, log)
		}
	}
	checkLegacyTaskRefusals(ctx, t, cs)
}

// legacyTaskToolOutcomes lists what each tool of taskTestServer gives when
// called as a 2025-11-25 task: a result starting with want, or a JSON-RPC
// error with code.
var legacyTaskToolOutcomes = []struct {
	tool, want string
	isError    bool
	code       ErrorCode
}{
	{tool: "wait", want: "released in "}, // the task id follows
	{tool: "quick", want: "quick done"},
	{tool: "toolerror", want: "the job failed", isError: true},
	{tool: "protocolerror", code: CodeInternalError},
	{tool: "confirm", want: "accept true"}, // asks the client through the session
}

// checkLegacyTaskRefusals checks that a tool without task support refuses
// a task, and that tasks/cancel of a task that ended and tasks/get of an
// unknown task are invalid params.
func checkLegacyTaskRefusals(ctx context.Context, t *testing.T, cs *ClientSession) {
	t.Helper()
	if _, err := cs.CallTool(ctx, "sync", nil, &CallToolOptions{Task: &TaskMetadata{}}); CodeOf(err) != CodeMethodNotFound {
		t.Errorf("task call of a tool without task support: %v", err)
	}
	var created struct {
		Task *Task `json:"task"`
	}
	if err := cs.Call(ctx, MethodCallTool, &CallToolParams{Name: "quick", Task: &TaskMetadata{}}, &created); err != nil || created.Task == nil {
		t.Fatalf("raw task call: %v %+v", err, created)
	}
	var payload CallToolResult
	if err := cs.Call(ctx, MethodGetTaskPayload, &GetTaskPayloadParams{TaskID: created.Task.TaskID}, &payload); err != nil {
		t.Fatal(err)
	}
	if err := cs.Call(ctx, MethodCancelTask, &CancelTaskParams{TaskID: created.Task.TaskID}, nil); CodeOf(err) != CodeInvalidParams {
		t.Errorf("tasks/cancel of a completed task: %v", err)
	}
	if err := cs.Call(ctx, MethodGetTask, &GetTaskParams{TaskID: "nope"}, nil); CodeOf(err) != CodeInvalidParams {
		t.Errorf("tasks/get of an unknown task: %v", err)
	}
}

// TestLegacyTaskAsksWithInputRequired checks that while the handler of a
// 2025-11-25 task waits on the client, the task is input_required and the
// request names the task.
func TestLegacyTaskAsksWithInputRequired(t *testing.T) {
	s, release := taskTestServer(fastTasks)
	close(release)
	seen := make(chan string, 1)
	opts := &ClientOptions{
		ProtocolVersion: Version20251125,
		ElicitationHandler: func(ctx context.Context, _ *ClientSession, p *ElicitParams) (*ElicitResult, error) {
			if p.Meta.RelatedTask == nil {
				seen <- "no related-task _meta"
			} else if task, err := s.taskEngine().store.Get(ctx, p.Meta.RelatedTask.TaskID); err != nil {
				seen <- err.Error()
			} else {
				seen <- string(task.Status)
			}
			return &ElicitResult{Action: ElicitActionAccept, Content: map[string]any{"confirm": true}}, nil
		},
	}
	cs := connectTasks(t, s, opts)
	res, err := cs.CallTool(context.Background(), "confirm", nil, &CallToolOptions{Task: &TaskMetadata{}})
	if err != nil || res.Content[0].Text != "accept true" {
		t.Fatalf("confirm: %v %+v", err, res)
	}
	if got := <-seen; got != string(TaskStatusInputRequired) {
		t.Errorf("while asking, the task was %q, want input_required", got)
	}
}
