package mcp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// FuzzTaskDecode decodes arbitrary results as the client decodes task
// states (CreateTaskResult, tasks/get) and checks that what decodes
// encodes again to a fixed point; it also feeds the bytes to the server's
// check of tasks/update answers.
func FuzzTaskDecode(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "tasks-2026-07-28.txt"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(golden), "\n") {
		if i := strings.Index(line, `"result":`); i >= 0 && strings.HasPrefix(line, "read: ") {
			f.Add([]byte(line[i+len(`"result":`) : len(line)-1]))
		}
	}
	f.Add([]byte(`{"taskId":"t","status":"input_required","createdAt":"x","lastUpdatedAt":"y","ttlMs":null,"inputRequests":{"a":{"method":"roots/list"},"b":{"method":"x/y","params":[1]}}}`))
	f.Add([]byte(`{"action":"accept","content":{"confirm":true}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, method := range []string{MethodElicit, MethodCreateMessage, MethodListRoots, "other"} {
			_ = checkAnswer(method, data) // any input: an answer or an error, never a panic
		}
		var a DetailedTask
		if decodeResult(data, &a) != nil {
			return
		}
		first, err := strictjson.Marshal(&a)
		if err != nil {
			t.Fatalf("a decoded task does not encode: %v", err)
		}
		var b DetailedTask
		if err := decodeResult(first, &b); err != nil {
			t.Fatalf("an encoded task does not decode: %v\n%s", err, first)
		}
		second, err := strictjson.Marshal(&b)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("encoding is not a fixed point:\n%s\n%s", first, second)
		}
	})
}

// FuzzLegacyTaskDecode feeds arbitrary results to the client's detection of
// a 2025-11-25 CreateTaskResult and arbitrary cursors to tasks/list: a
// detected task encodes and decodes again, and a bad cursor is a -32602
// error, never a panic.
func FuzzLegacyTaskDecode(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "tasks-2025-11-25.txt"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(golden), "\n") {
		if i := strings.Index(line, `"result":`); i >= 0 && strings.HasPrefix(line, "read: ") {
			f.Add([]byte(line[i+len(`"result":`) : len(line)-1]))
		}
	}
	f.Add([]byte(`{"content":[],"task":null}`))
	f.Add([]byte(`{"task":{"taskId":1}}`))
	f.Add([]byte(`1`))
	s := NewServer("fuzz", "v1", nil)
	s.AddTools(&ServerTool{Tool: &Tool{Name: "t", InputSchema: map[string]any{"type": "object"}, Execution: &ToolExecution{TaskSupport: TaskSupportOptional}},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{}, nil
		}})
	ss := newServerSession(s, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		if task, ok := createdTask(data); ok {
			b, err := strictjson.Marshal(task)
			if err != nil {
				t.Fatalf("a detected task does not encode: %v", err)
			}
			if _, ok := createdTask([]byte(`{"task":` + string(b) + `}`)); !ok {
				t.Fatalf("an encoded task is not detected: %s", b)
			}
		}
		_, err := ss.listLegacyTasks(context.Background(), &ListTasksParams{Cursor: string(data)})
		var werr *JSONRPCError
		if err != nil && (!errors.As(err, &werr) || werr.Code != CodeInvalidParams) {
			t.Fatalf("tasks/list with cursor %q: %v", data, err)
		}
	})
}
