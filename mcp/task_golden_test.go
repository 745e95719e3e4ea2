package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
)

// TestTaskGoldenExchange records the exact messages of a task's life, from
// tools/call to tasks/cancel, and compares them with
// testdata/golden/tasks-2026-07-28.txt (timestamps blanked). Run with
// -update to rewrite the file after an intended change.
func TestTaskGoldenExchange(t *testing.T) {
	var n atomic.Int64
	s, release := taskTestServer(&TaskOptions{NewTaskID: func() string { return fmt.Sprintf("task-%d", n.Add(1)) }})
	defer close(release)
	var log lockedBuffer
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
		func() error { _, _, err := cs.StartToolCall(ctx, &CallToolParams{Name: "confirm"}); return err },
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
		func() error { _, _, err := cs.StartToolCall(ctx, &CallToolParams{Name: "protocolerror"}); return err },
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
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
	}
	cs.Close()
	ss.Wait()
	got := regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`).ReplaceAllString(log.String(), `"$1":"<timestamp>"`)
	compareGolden(t, filepath.Join("testdata", "golden", "tasks-2026-07-28.txt"), got)
}
