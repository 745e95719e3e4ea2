package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gomcp/sdk/internal/goldentest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// goldenPoll is the polling interval of the golden task exchanges: long
// enough for a quick tool to end before the client polls, so that the
// exchange is always the same.
const goldenPoll = 500 * time.Millisecond

// expectText returns a check that a call's result is text.
func expectText(res *CallToolResult, err error) func(text string) error {
	return func(text string) error {
		if err != nil {
			return err
		}
		if len(res.Content) == 0 || res.Content[0].Text != text {
			return fmt.Errorf("result %+v, want %q", res, text)
		}
		return nil
	}
}

// TestTaskGoldenExchange records the exact messages of a task's life, from
// tools/call to tasks/cancel, and compares them with
// testdata/golden/tasks-2026-07-28.txt (timestamps blanked). Run with
// -update to rewrite the file after an intended change.
func TestTaskGoldenExchange(t *testing.T) {
	var n atomic.Int64
	s, release := taskTestServer(&TaskOptions{PollInterval: goldenPoll, NewTaskID: func() string { return fmt.Sprintf("task-%d", n.Add(1)) }})
	defer close(release)
	var log goldentest.Buffer
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	opts := taskClientOptions("", nil)
	opts.Capabilities.Elicitation = &ElicitationCapability{}
	cs, err := NewClient("golden-client", "v1.0.0", opts).Connect(context.Background(), NewLoggingTransport(ct, &log))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	status := func(id string) TaskStatus {
		task, err := s.taskEngine().store.Get(ctx, id)
		if err != nil {
			return ""
		}
		return task.Status
	}
	steps := []func() error{
		func() error { _, _, err := cs.StartToolCall(ctx, "confirm", nil, nil); return err },
		func() error {
			waitUntil(t, func() bool { return status("task-1") == TaskStatusInputRequired })
			_, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "task-1"})
			return err
		},
		func() error {
			_, err := cs.UpdateTask(ctx, &UpdateTaskParams{TaskID: "task-1", InputResponses: map[string]json.RawMessage{"input-1": json.RawMessage(`{"action":"accept","content":{"confirm":true}}`)}})
			return err
		},
		func() error {
			waitUntil(t, func() bool { return status("task-1") == TaskStatusCompleted })
			_, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "task-1"})
			return err
		},
		func() error { _, err := cs.CancelTask(ctx, &CancelTaskParams{TaskID: "task-1"}); return err },
		func() error { _, _, err := cs.StartToolCall(ctx, "protocolerror", nil, nil); return err },
		func() error {
			waitUntil(t, func() bool { return status("task-2") == TaskStatusFailed })
			_, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "task-2"})
			return err
		},
		func() error {
			var werr *JSONRPCError
			if _, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "task-3"}); !errors.As(err, &werr) {
				return fmt.Errorf("GetTask of an unknown task: %v", err)
			}
			return nil
		},
		// CallTool follows a task to its result: tasks/get after the
		// polling interval.
		func() error { return expectText(cs.CallTool(ctx, "quick", nil, nil))("quick done") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
	}
	cs.Close()
	ss.Wait()
	got := regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`).ReplaceAllString(log.String(), `"$1":"<timestamp>"`)
	goldentest.Compare(t, filepath.Join("testdata", "golden", "tasks-2026-07-28.txt"), got)
}

// TestTaskGoldenExchangeLegacy records the exact messages of the tasks of
// protocol 2025-11-25, served by the same tools: a task-augmented
// tools/call followed to its result (tasks/get, tasks/result), tasks/list,
// tasks/cancel and its status notification, and the errors of an ended or
// unknown task and of a required task tool called without a task. It
// compares them with testdata/golden/tasks-2025-11-25.txt (timestamps
// blanked); run with -update to rewrite it.
func TestTaskGoldenExchangeLegacy(t *testing.T) {
	var n atomic.Int64
	s, release := taskTestServer(&TaskOptions{PollInterval: goldenPoll, NewTaskID: func() string { return fmt.Sprintf("task-%d", n.Add(1)) }})
	s.AddTools(&ServerTool{
		Tool: &Tool{Name: "hold", InputSchema: json.RawMessage(`{"type":"object"}`), Execution: &ToolExecution{TaskSupport: TaskSupportOptional}},
		Handler: func(ctx context.Context, _ *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
			<-ctx.Done() // until cancelled
			return nil, ctx.Err()
		},
	})
	var log goldentest.Buffer
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("golden-client", "v1.0.0", taskClientOptions(Version20251125, nil)).Connect(context.Background(), NewLoggingTransport(ct, &log))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var werr *JSONRPCError
	wantCode := func(code ErrorCode, err error) error {
		if !errors.As(err, &werr) || werr.Code != code {
			return fmt.Errorf("error %v, want code %d", err, code)
		}
		return nil
	}
	steps := []func() error{
		func() error { _, err := cs.ListTools(ctx, nil); return err },
		func() error {
			// The tool returns once its task was created, so that the
			// status notification comes after the CreateTaskResult.
			go func() {
				waitUntil(t, func() bool { return strings.Contains(log.String(), `"result":{"task":{"taskId":"task-1"`) })
				close(release)
			}()
			return expectText(cs.CallTool(ctx, "wait", nil, nil))("released in ")
		},
		func() error {
			ttl := int64(60000)
			_, _, err := cs.StartToolCall(ctx, "hold", nil, &CallToolOptions{Task: &TaskMetadata{TTL: &ttl}})
			return err
		},
		func() error { _, err := cs.ListTasks(ctx, nil); return err },
		func() error { _, err := cs.CancelTask(ctx, &CancelTaskParams{TaskID: "task-2"}); return err },
		func() error {
			_, err := cs.CancelTask(ctx, &CancelTaskParams{TaskID: "task-1"})
			return wantCode(CodeInvalidParams, err)
		},
		func() error {
			_, err := cs.GetTask(ctx, &GetTaskParams{TaskID: "task-3"})
			return wantCode(CodeInvalidParams, err)
		},
		func() error {
			return wantCode(CodeMethodNotFound, cs.Call(ctx, MethodCallTool, &CallToolParams{Name: "quick"}, nil))
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
	}
	cs.Close()
	ss.Wait()
	got := regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`).ReplaceAllString(log.String(), `"$1":"<timestamp>"`)
	goldentest.Compare(t, filepath.Join("testdata", "golden", "tasks-2025-11-25.txt"), got)
}
