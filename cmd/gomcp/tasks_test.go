package main

import (
	"strings"
	"testing"
)

// TestTasks starts a tool call as a task with call --task, then follows
// it with tasks get and tasks result (2026-07-28 tasks extension), and
// gets it again over a 2025-11-25 session, where tasks are core protocol.
func TestTasks(t *testing.T) {
	r := runCLI(t, "call", "--task", "--json", everythingURL, "slow_compute", "seconds=0.2", "label=job")
	if r.code != 0 {
		t.Fatalf("call --task: exit %d: %s", r.code, r.stderr)
	}
	var task struct {
		TaskID string `json:"taskId"`
		Status string `json:"status"`
	}
	if err := jsonUnmarshal([]byte(r.stdout), &task); err != nil || task.TaskID == "" {
		t.Fatalf("call --task printed %q: %v", r.stdout, err)
	}
	r = runCLI(t, "tasks", everythingURL, "result", task.TaskID)
	if r.code != 0 || !strings.Contains(r.stdout, `computed "job"`) {
		t.Fatalf("tasks result: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "tasks", "--json", everythingURL, "get", task.TaskID)
	if r.code != 0 || !strings.Contains(r.stdout, `"status":"completed"`) {
		t.Fatalf("tasks get: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "tasks", "--json", "--protocol", "legacy", everythingURL, "get", task.TaskID)
	if r.code != 0 || !strings.Contains(r.stdout, `"status":"completed"`) {
		t.Fatalf("tasks get at 2025-11-25: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "tasks", everythingURL, "frob", "x"); r.code != exitUsage {
		t.Fatalf("unknown operation: exit %d", r.code)
	}
}
