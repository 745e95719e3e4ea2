package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Tests of the server side of the tasks extension (SEP-2663), read like the
// extension's specification. Requests are served as the streamable HTTP
// handler serves 2026-07-28 requests (serveStateless), and compared as
// JSON.

// withTasks are client capabilities that declare the tasks extension.
var withTasks = &ClientCapabilities{Extensions: map[string]any{TasksExtension: map[string]any{}}}

// wire serves one 2026-07-28 request with the given client capabilities and
// returns its result as a JSON object, or its error.
func wire(t *testing.T, s *Server, caps *ClientCapabilities, method string, params map[string]any) (map[string]any, *JSONRPCError) {
	t.Helper()
	if caps == nil {
		caps = &ClientCapabilities{}
	}
	p := map[string]any{"_meta": map[string]any{
		MetaKeyProtocolVersion:    Version20260728,
		MetaKeyClientCapabilities: caps,
		MetaKeyClientInfo:         &Implementation{Name: "test", Version: "1"},
	}}
	for k, v := range params {
		p[k] = v
	}
	req, err := jsonrpc2.NewCall(jsonrpc2.Int64ID(1), method, p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.serveStateless(context.Background(), req, nil)
	resp := jsonrpc2.NewResponse(req.ID, res, err)
	if resp.Error != nil {
		return nil, resp.Error
	}
	var m map[string]any
	if err := strictjson.Unmarshal(resp.Result, &m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

// mustWire is wire for a request that must succeed.
func mustWire(t *testing.T, s *Server, caps *ClientCapabilities, method string, params map[string]any) map[string]any {
	t.Helper()
	res, werr := wire(t, s, caps, method, params)
	if werr != nil {
		t.Fatalf("%s: %v", method, werr)
	}
	dropServerInfo(res) // compared without the server's identity
	return res
}

// waitStatus polls tasks/get until the task has status want (or is
// terminal) and returns the last state.
func waitStatus(t *testing.T, s *Server, id string, want TaskStatus) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id})
		if st := TaskStatus(got["status"].(string)); st == want || isTerminalTask(st) || time.Now().After(deadline) {
			if st != want {
				t.Fatalf("task %s: status %s, want %s: %v", id, st, want, got)
			}
			return got
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// taskTestServer is a server with the tools of the tests below.
func taskTestServer(opts *TaskOptions) (*Server, chan struct{}) {
	release := make(chan struct{}) // closing it lets "wait" return
	s := NewServer("tasks", "v1", &ServerOptions{Tasks: opts})
	handler := func(h func(ctx context.Context, ss *ServerSession, args map[string]any) (*CallToolResult, error)) ToolHandler {
		return func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			var args map[string]any
			if raw, ok := p.Arguments.(json.RawMessage); ok {
				_ = strictjson.Unmarshal(raw, &args) // the schema asks for an object; anything else reads as no arguments
			}
			return h(ctx, ss, args)
		}
	}
	text := func(s string) *CallToolResult { return &CallToolResult{Content: []*Content{NewTextContent(s)}} }
	tool := func(name, support string, h func(ctx context.Context, ss *ServerSession, args map[string]any) (*CallToolResult, error)) *ServerTool {
		t := &Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}
		if support != "" {
			t.Execution = &ToolExecution{TaskSupport: support}
		}
		return &ServerTool{Tool: t, Handler: handler(h)}
	}
	s.AddTools(
		tool("sync", "", func(context.Context, *ServerSession, map[string]any) (*CallToolResult, error) {
			return text("sync done"), nil
		}),
		tool("wait", TaskSupportOptional, func(ctx context.Context, ss *ServerSession, _ map[string]any) (*CallToolResult, error) {
			select {
			case <-release:
				return text("released in " + ss.TaskID()), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}),
		tool("quick", TaskSupportRequired, func(context.Context, *ServerSession, map[string]any) (*CallToolResult, error) {
			return text("quick done"), nil
		}),
		tool("toolerror", TaskSupportOptional, func(context.Context, *ServerSession, map[string]any) (*CallToolResult, error) {
			return nil, errors.New("the job failed")
		}),
		tool("protocolerror", TaskSupportOptional, func(context.Context, *ServerSession, map[string]any) (*CallToolResult, error) {
			return nil, newError(CodeInternalError, "the backend is down")
		}),
		tool("panics", TaskSupportOptional, func(context.Context, *ServerSession, map[string]any) (*CallToolResult, error) {
			panic("broken invariant")
		}),
		tool("confirm", TaskSupportOptional, func(ctx context.Context, ss *ServerSession, _ map[string]any) (*CallToolResult, error) {
			res, err := ss.Elicit(ctx, &ElicitParams{Message: "Sure?", RequestedSchema: &ElicitationSchema{
				Type: "object", Properties: map[string]*PrimitiveSchema{"confirm": {Type: "boolean"}}, Required: []string{"confirm"},
			}})
			if err != nil {
				return nil, err
			}
			return text(fmt.Sprintf("%s %v", res.Action, res.Content["confirm"])), nil
		}),
		tool("pair", TaskSupportOptional, func(ctx context.Context, ss *ServerSession, _ map[string]any) (*CallToolResult, error) {
			var first, second *ElicitResult
			err := ss.AskAll(ctx,
				func(ctx context.Context) (err error) { first, err = ss.Elicit(ctx, nameForm("First?")); return err },
				func(ctx context.Context) (err error) { second, err = ss.Elicit(ctx, nameForm("Second?")); return err },
			)
			if err != nil {
				return nil, err
			}
			return text(fmt.Sprint(first.Content["name"], "+", second.Content["name"])), nil
		}),
	)
	gather := tool("gather", TaskSupportRequired, func(ctx context.Context, ss *ServerSession, _ map[string]any) (*CallToolResult, error) {
		res, err := ss.Elicit(InputKey(ctx, "user_name"), nameForm("Name?"))
		if err != nil {
			return nil, err
		}
		if err := ss.StartTask(ctx); err != nil {
			return nil, err
		}
		return text("Hello, " + fmt.Sprint(res.Content["name"]) + " from " + ss.TaskID()), nil
	})
	gather.HandlerStartsTask = true
	s.AddTools(gather)
	return s, release
}

func nameForm(message string) *ElicitParams {
	return &ElicitParams{Message: message, RequestedSchema: &ElicitationSchema{
		Type: "object", Properties: map[string]*PrimitiveSchema{"name": {Type: "string"}}, Required: []string{"name"},
	}}
}

var elicitingTasks = &ClientCapabilities{
	Elicitation: &ElicitationCapability{},
	Extensions:  map[string]any{TasksExtension: map[string]any{}},
}

func TestTaskCapabilityAdvertised(t *testing.T) {
	mine := map[string]any{"example.com/other": map[string]any{}}
	s := NewServer("s", "v1", &ServerOptions{Capabilities: &ServerCapabilities{Extensions: mine}})
	if caps := mustWire(t, s, nil, MethodDiscover, nil)["capabilities"].(map[string]any); caps["extensions"].(map[string]any)[TasksExtension] != nil {
		t.Fatalf("a server without task tools declares the extension: %v", caps)
	}
	s.AddTools(NewTool("t", "", func(context.Context, *ServerSession, struct{}) ([]*Content, error) { return nil, nil }, TaskSupport(TaskSupportOptional)))
	caps := mustWire(t, s, nil, MethodDiscover, nil)["capabilities"].(map[string]any)
	ext := caps["extensions"].(map[string]any)
	if !reflect.DeepEqual(ext, map[string]any{TasksExtension: map[string]any{}, "example.com/other": map[string]any{}}) {
		t.Fatalf("extensions %v", ext)
	}
	if caps["tasks"] != nil {
		t.Fatalf("the 2025-11-25 tasks capability is declared: %v", caps)
	}
	if len(mine) != 1 {
		t.Fatalf("the server changed the options' Extensions map: %v", mine)
	}
	tools := mustWire(t, s, nil, MethodListTools, nil)["tools"].([]any)
	if got := tools[0].(map[string]any)["execution"]; !reflect.DeepEqual(got, map[string]any{"taskSupport": "optional"}) {
		t.Fatalf("execution %v", got)
	}
}

func TestToolsCallTaskCreation(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	tests := []struct {
		name     string
		tool     string
		caps     *ClientCapabilities
		wantTask bool
		wantCode ErrorCode
	}{
		{"task tool, client with the extension: a task", "wait", withTasks, true, 0},
		{"required tool, client with the extension: a task", "quick", withTasks, true, 0},
		{"task tool, client without the extension: synchronous", "toolerror", nil, false, 0},
		{"required tool, client without the extension: -32021", "quick", nil, false, CodeMissingRequiredClientCapability},
		{"sync tool, client with the extension: synchronous", "sync", withTasks, false, 0},
		{"extension declared as null: not declared", "quick", &ClientCapabilities{Extensions: map[string]any{TasksExtension: nil}}, false, CodeMissingRequiredClientCapability},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The legacy task param is tolerated and changes nothing.
			res, werr := wire(t, s, tt.caps, MethodCallTool, map[string]any{"name": tt.tool, "task": map[string]any{"ttl": 60000}})
			if tt.wantCode != 0 {
				if werr == nil || werr.Code != tt.wantCode {
					t.Fatalf("got %v, %v; want error %d", res, werr, tt.wantCode)
				}
				var data struct {
					RequiredCapabilities map[string]any `json:"requiredCapabilities"`
				}
				if err := strictjson.Unmarshal(werr.Data, &data); err != nil || !reflect.DeepEqual(data.RequiredCapabilities, map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}) {
					t.Fatalf("error data %s (%v)", werr.Data, err)
				}
				return
			}
			if werr != nil {
				t.Fatal(werr)
			}
			if !tt.wantTask {
				if res["resultType"] != "complete" || res["taskId"] != nil || res["content"] == nil {
					t.Fatalf("want a synchronous result, got %v", res)
				}
				return
			}
			checkCreateTaskResult(t, res)
			// Durable creation: tasks/get finds the task at once.
			got := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": res["taskId"]})
			if got["taskId"] != res["taskId"] || got["resultType"] != "complete" {
				t.Fatalf("tasks/get right after creation: %v", got)
			}
		})
	}
}

// checkCreateTaskResult checks the flat CreateTaskResult of SEP-2663.
func checkCreateTaskResult(t *testing.T, res map[string]any) {
	t.Helper()
	if res["resultType"] != "task" || res["status"] != "working" {
		t.Fatalf("not a working CreateTaskResult: %v", res)
	}
	if id, _ := res["taskId"].(string); len(id) != 36 {
		t.Fatalf("taskId %q is not a UUID", res["taskId"])
	}
	for _, key := range []string{"createdAt", "lastUpdatedAt"} {
		if _, err := time.Parse(time.RFC3339, res[key].(string)); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
	}
	for _, key := range []string{"ttlMs", "pollIntervalMs"} {
		if v, ok := res[key].(float64); !ok || v <= 0 || v != float64(int64(v)) {
			t.Fatalf("%s = %v, want a positive integer", key, res[key])
		}
	}
	for _, key := range []string{"task", "ttl", "pollInterval", "result", "error", "inputRequests", "requestState", "content"} {
		if _, ok := res[key]; ok {
			t.Fatalf("CreateTaskResult carries %q: %v", key, res)
		}
	}
}

func TestTaskLifecycle(t *testing.T) {
	s, release := taskTestServer(nil)
	created := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": "wait"})
	id := created["taskId"].(string)
	working := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id})
	if working["status"] != "working" || working["result"] != nil || working["error"] != nil || working["inputRequests"] != nil {
		t.Fatalf("working task: %v", working)
	}
	close(release)
	done := waitStatus(t, s, id, TaskStatusCompleted)
	want := map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": "released in " + id}}}
	if !reflect.DeepEqual(done["result"], want) {
		t.Fatalf("inlined result %v, want %v", done["result"], want)
	}
	if done["createdAt"] != created["createdAt"] || done["error"] != nil {
		t.Fatalf("completed task: %v", done)
	}
}

func TestTaskOutcomes(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	tests := []struct {
		tool       string
		status     TaskStatus
		wantResult map[string]any
		wantError  map[string]any
	}{
		// A tool that ran and failed completes, with isError.
		{"toolerror", TaskStatusCompleted, map[string]any{"resultType": "complete", "isError": true, "content": []any{map[string]any{"type": "text", "text": "the job failed"}}}, nil},
		// A JSON-RPC error fails the task.
		{"protocolerror", TaskStatusFailed, nil, map[string]any{"code": float64(CodeInternalError), "message": "the backend is down"}},
		{"panics", TaskStatusFailed, nil, map[string]any{"code": float64(CodeInternalError), "message": `tool "panics" failed: panic: broken invariant`}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			id := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": tt.tool})["taskId"].(string)
			got := waitStatus(t, s, id, tt.status)
			if tt.wantResult != nil && !reflect.DeepEqual(got["result"], tt.wantResult) {
				t.Fatalf("result %v, want %v", got["result"], tt.wantResult)
			}
			if tt.wantError != nil && (!reflect.DeepEqual(got["error"], tt.wantError) || got["result"] != nil || got["statusMessage"] == nil) {
				t.Fatalf("failed task %v, want error %v", got, tt.wantError)
			}
		})
	}
}

func TestTaskCancel(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	id := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": "wait"})["taskId"].(string)
	ack := mustWire(t, s, withTasks, MethodCancelTask, map[string]any{"taskId": id})
	if !reflect.DeepEqual(ack, map[string]any{"resultType": "complete"}) {
		t.Fatalf("cancel ack %v", ack)
	}
	got := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id})
	if got["status"] != "cancelled" || got["result"] != nil {
		t.Fatalf("after tasks/cancel: %v", got)
	}
	// Cancelling a terminal task acknowledges again and changes nothing.
	if ack := mustWire(t, s, withTasks, MethodCancelTask, map[string]any{"taskId": id}); !reflect.DeepEqual(ack, map[string]any{"resultType": "complete"}) {
		t.Fatalf("second cancel ack %v", ack)
	}
	waitUntil(t, func() bool { return s.taskEngine().run(id) == nil }) // the handler saw its context end
	if got := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Fatalf("a cancelled task changed: %v", got)
	}
}

func TestTasksMethodsErrors(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	tests := []struct {
		name   string
		caps   *ClientCapabilities
		method string
		params map[string]any
		code   ErrorCode
	}{
		{"tasks/get without the extension", nil, MethodGetTask, map[string]any{"taskId": "x"}, CodeMissingRequiredClientCapability},
		{"tasks/update without the extension", nil, MethodUpdateTask, map[string]any{"taskId": "x", "inputResponses": map[string]any{}}, CodeMissingRequiredClientCapability},
		{"tasks/cancel without the extension", nil, MethodCancelTask, map[string]any{"taskId": "x"}, CodeMissingRequiredClientCapability},
		{"tasks/get of an unknown task", withTasks, MethodGetTask, map[string]any{"taskId": "nonexistent"}, CodeInvalidParams},
		{"tasks/update of an unknown task", withTasks, MethodUpdateTask, map[string]any{"taskId": "nonexistent", "inputResponses": map[string]any{}}, CodeInvalidParams},
		{"tasks/cancel of an unknown task", withTasks, MethodCancelTask, map[string]any{"taskId": "nonexistent"}, CodeInvalidParams},
		{"tasks/result is removed", withTasks, MethodGetTaskPayload, map[string]any{"taskId": "x"}, CodeMethodNotFound},
		{"tasks/list is removed", withTasks, MethodListTasks, nil, CodeMethodNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, werr := wire(t, s, tt.caps, tt.method, tt.params)
			if werr == nil || werr.Code != tt.code {
				t.Fatalf("got %v, %v; want error %d", res, werr, tt.code)
			}
		})
	}
}

func TestTaskInputRequired(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	id := mustWire(t, s, elicitingTasks, MethodCallTool, map[string]any{"name": "confirm"})["taskId"].(string)
	got := waitStatus(t, s, id, TaskStatusInputRequired)
	wantRequests := map[string]any{"input-1": map[string]any{"method": "elicitation/create", "params": map[string]any{
		"message": "Sure?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"confirm": map[string]any{"type": "boolean"}}, "required": []any{"confirm"}},
	}}}
	if !reflect.DeepEqual(got["inputRequests"], wantRequests) {
		t.Fatalf("inputRequests %v\nwant %v", got["inputRequests"], wantRequests)
	}
	// Unknown keys are ignored; the task stays input_required.
	ack := mustWire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{"unknown": map[string]any{"x": 1}}})
	if !reflect.DeepEqual(ack, map[string]any{"resultType": "complete"}) {
		t.Fatalf("update ack %v", ack)
	}
	// An answer that is not a result of its request is refused.
	if _, werr := wire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{"input-1": 12}}); werr == nil || werr.Code != CodeInvalidParams {
		t.Fatalf("invalid answer: %v", werr)
	}
	waitStatus(t, s, id, TaskStatusInputRequired)
	mustWire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{"input-1": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}})
	done := waitStatus(t, s, id, TaskStatusCompleted)
	if text := done["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "accept true" {
		t.Fatalf("result text %q", text)
	}
	// Answering again is ignored.
	mustWire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{"input-1": map[string]any{"action": "decline"}}})
}

func TestTaskPartialFulfillment(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	id := mustWire(t, s, elicitingTasks, MethodCallTool, map[string]any{"name": "pair"})["taskId"].(string)
	var got map[string]any
	waitUntil(t, func() bool {
		got = mustWire(t, s, elicitingTasks, MethodGetTask, map[string]any{"taskId": id})
		reqs, _ := got["inputRequests"].(map[string]any)
		return len(reqs) == 2
	})
	if got["status"] != "input_required" {
		t.Fatalf("two parallel asks: %v", got)
	}
	keys := sortedKeys(got["inputRequests"].(map[string]any))
	mustWire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{keys[0]: map[string]any{"action": "accept", "content": map[string]any{"name": "a"}}}})
	got = mustWire(t, s, elicitingTasks, MethodGetTask, map[string]any{"taskId": id})
	if rest := sortedKeys(got["inputRequests"].(map[string]any)); got["status"] != "input_required" || !reflect.DeepEqual(rest, keys[1:]) {
		t.Fatalf("after a partial answer: %v", got)
	}
	mustWire(t, s, elicitingTasks, MethodUpdateTask, map[string]any{"taskId": id, "inputResponses": map[string]any{keys[1]: map[string]any{"action": "accept", "content": map[string]any{"name": "b"}}}})
	done := waitStatus(t, s, id, TaskStatusCompleted)
	if text := done["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "a+b" && text != "b+a" {
		t.Fatalf("result text %q", text)
	}
}

func sortedKeys(m map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

func TestTaskAfterInputRequiredRounds(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	// Round 1: an input-required result, no task.
	round1 := mustWire(t, s, elicitingTasks, MethodCallTool, map[string]any{"name": "gather"})
	if round1["resultType"] != "input_required" || round1["taskId"] != nil || round1["inputRequests"].(map[string]any)["user_name"] == nil {
		t.Fatalf("round 1: %v", round1)
	}
	// Round 2: the task, without the MRTR requestState.
	round2 := mustWire(t, s, elicitingTasks, MethodCallTool, map[string]any{
		"name":           "gather",
		"inputResponses": map[string]any{"user_name": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}},
		"requestState":   round1["requestState"],
	})
	checkCreateTaskResult(t, round2)
	id := round2["taskId"].(string)
	done := waitStatus(t, s, id, TaskStatusCompleted)
	if text := done["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "Hello, Alice from "+id {
		t.Fatalf("result text %q", text)
	}
	// Without the extension the same tool is refused before it runs.
	if _, werr := wire(t, s, &ClientCapabilities{Elicitation: &ElicitationCapability{}}, MethodCallTool, map[string]any{"name": "gather"}); werr == nil || werr.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("without the extension: %v", werr)
	}
}

func TestTaskExpiresAfterTTL(t *testing.T) {
	s, release := taskTestServer(&TaskOptions{TTL: 50 * time.Millisecond, PollInterval: 5 * time.Millisecond})
	defer close(release)
	created := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": "wait"})
	if created["ttlMs"] != float64(50) || created["pollIntervalMs"] != float64(5) {
		t.Fatalf("durations %v", created)
	}
	id := created["taskId"].(string)
	waitUntil(t, func() bool { return s.taskEngine().run(id) == nil }) // the handler was cancelled
	if _, werr := wire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id}); werr == nil || werr.Code != CodeInvalidParams || !strings.Contains(werr.Message, "not found") {
		t.Fatalf("expired task: %v", werr)
	}
}

func TestTaskIDsAreUnique(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		id := randomTaskID()
		if seen[id] || len(id) != 36 || id[14] != '4' {
			t.Fatalf("task id %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}

func TestServerCloseCancelsTasks(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	id := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": "wait"})["taskId"].(string)
	s.Close()
	waitUntil(t, func() bool { return s.taskEngine().run(id) == nil })
	if got := mustWire(t, s, withTasks, MethodGetTask, map[string]any{"taskId": id}); got["status"] != "failed" {
		t.Fatalf("task of a closed server: %v", got)
	}
}

func TestTaskNotificationsOnListen(t *testing.T) {
	s, release := taskTestServer(nil)
	id := mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": "wait"})["taskId"].(string)

	// Without the extension, asking for task notifications is refused.
	refused, err := jsonrpc2.NewCall(jsonrpc2.Int64ID(2), MethodSubscriptionsListen, map[string]any{
		"_meta":         map[string]any{MetaKeyProtocolVersion: Version20260728, MetaKeyClientCapabilities: map[string]any{}},
		"notifications": map[string]any{"taskIds": []string{id}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.serveStateless(context.Background(), refused, func(context.Context, string, any) error { return nil })
	if werr := (*JSONRPCError)(nil); !errors.As(err, &werr) || werr.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("listen for tasks without the extension: %v", err)
	}

	notes := make(chan map[string]any, 16)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := jsonrpc2.NewCall(jsonrpc2.StringID("listen-1"), MethodSubscriptionsListen, map[string]any{
		"_meta": map[string]any{
			MetaKeyProtocolVersion:    Version20260728,
			MetaKeyClientCapabilities: withTasks,
		},
		"notifications": map[string]any{"taskIds": []string{id, "unknown-task"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = s.serveStateless(ctx, req, func(_ context.Context, method string, params any) error { // the test checks what was sent, not the answer
			raw, err := strictjson.Marshal(params)
			if err != nil {
				return err
			}
			var m map[string]any
			if err := strictjson.Unmarshal(raw, &m); err != nil {
				return err
			}
			notes <- map[string]any{"method": method, "params": m}
			return nil
		})
	}()
	next := func() map[string]any {
		select {
		case n := <-notes:
			return n
		case <-time.After(5 * time.Second):
			t.Fatal("no notification")
			return nil
		}
	}
	ack := next()
	if ack["method"] != NotificationSubscriptionsAcknowledged || !reflect.DeepEqual(ack["params"].(map[string]any)["notifications"], map[string]any{"taskIds": []any{id}}) {
		t.Fatalf("acknowledgement %v: the server agrees to the tasks it knows", ack)
	}
	// The current state comes first, then each change.
	if n := next(); n["method"] != NotificationTasks || n["params"].(map[string]any)["status"] != "working" {
		t.Fatalf("first task notification %v", n)
	}
	close(release)
	n := next()
	p := n["params"].(map[string]any)
	if n["method"] != NotificationTasks || p["taskId"] != id || p["status"] != "completed" || p["result"] == nil || p["resultType"] != nil ||
		p["_meta"].(map[string]any)[MetaKeySubscriptionID] != "listen-1" {
		t.Fatalf("task notification %v", n)
	}
	cancel()
	<-done
}

func TestTaskGoroutinesEnd(t *testing.T) {
	s, release := taskTestServer(nil)
	defer close(release)
	before := runtime.NumGoroutine()
	var ids []string
	for i := range 50 {
		tool := "quick"
		if i%2 == 1 {
			tool = "wait"
		}
		ids = append(ids, mustWire(t, s, withTasks, MethodCallTool, map[string]any{"name": tool})["taskId"].(string))
	}
	for _, id := range ids {
		mustWire(t, s, withTasks, MethodCancelTask, map[string]any{"taskId": id})
	}
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
}
