package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeLegacyTaskServer is a 2025-11-25 server, scripted at the wire level,
// that runs tools/call as a task: it stays working for `polls` tasks/get
// requests, then completes. It records the methods it receives.
type fakeLegacyTaskServer struct {
	polls int

	mu      sync.Mutex
	methods []string
	gets    int
}

func (f *fakeLegacyTaskServer) serve(conn net.Conn) {
	r := bufio.NewReader(conn)
	task := func(status string) map[string]any {
		return map[string]any{"taskId": "t1", "status": status, "createdAt": "2025-11-25T10:00:00Z",
			"lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": nil, "pollInterval": 10}
	}
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		msg, err := DecodeMessage(line)
		if err != nil {
			continue
		}
		req, ok := msg.(*JSONRPCRequest)
		if !ok {
			continue
		}
		f.mu.Lock()
		f.methods = append(f.methods, req.Method)
		f.mu.Unlock()
		if req.IsNotification() {
			continue
		}
		var result any
		switch req.Method {
		case MethodInitialize:
			result = map[string]any{"protocolVersion": Version20251125, "serverInfo": map[string]any{"name": "fake", "version": "1"},
				"capabilities": map[string]any{"tools": map[string]any{}, "tasks": map[string]any{"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}}
		case MethodCallTool:
			var p struct {
				Task *TaskMetadata `json:"task"`
			}
			_ = json.Unmarshal(req.Params, &p) // params without a task: p.Task stays nil, handled below
			if p.Task == nil {
				result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "direct"}}}
				break
			}
			result = map[string]any{"task": task("working")}
		case MethodGetTask:
			f.mu.Lock()
			f.gets++
			status := "working"
			if f.gets > f.polls {
				status = "completed"
			}
			f.mu.Unlock()
			result = task(status)
		case MethodGetTaskPayload:
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}
		case MethodCancelTask:
			result = task("cancelled")
		default:
			result = map[string]any{}
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID.Raw(), "result": result})
		if _, err := conn.Write(append(b, '\n')); err != nil {
			return
		}
	}
}

func (f *fakeLegacyTaskServer) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.methods)
}

func connectFakeTaskServer(t *testing.T, f *fakeLegacyTaskServer) *ClientSession {
	t.Helper()
	c, s := net.Pipe()
	go f.serve(s)
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125}).Connect(context.Background(), NewIOTransport(c))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); s.Close() })
	return cs
}

func TestLegacyTaskIsFollowed(t *testing.T) {
	f := &fakeLegacyTaskServer{polls: 2}
	cs := connectFakeTaskServer(t, f)
	res, err := cs.CallTool(context.Background(), "slow", map[string]any{}, &CallToolOptions{Task: &TaskMetadata{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Text != "done" {
		t.Fatalf("result %+v, want the task's result", res)
	}
	want := []string{MethodInitialize, NotificationInitialized, MethodCallTool, MethodGetTask, MethodGetTask, MethodGetTask, MethodGetTaskPayload}
	if got := f.seen(); !slices.Equal(got, want) {
		t.Errorf("exchange %q, want %q", got, want)
	}
	// A call without a task member is an ordinary call.
	res, err = cs.CallTool(context.Background(), "slow", map[string]any{}, nil)
	if err != nil || res.Content[0].Text != "direct" {
		t.Fatalf("plain call: %v %+v", err, res)
	}
}

func TestLegacyTaskCancelledWhenCallerGivesUp(t *testing.T) {
	f := &fakeLegacyTaskServer{polls: 1 << 30}
	cs := connectFakeTaskServer(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cs.CallTool(ctx, "slow", nil, &CallToolOptions{Task: &TaskMetadata{}}); err == nil {
		t.Fatal("call of a task that never ends succeeded")
	}
	waitUntil(t, func() bool { return slices.Contains(f.seen(), MethodCancelTask) })
}
