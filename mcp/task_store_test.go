package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func storedTask(id string, status TaskStatus) *DetailedTask {
	return &DetailedTask{TaskID: id, Status: status}
}

func TestMemoryTaskStore(t *testing.T) {
	ctx := context.Background()
	st := NewMemoryTaskStore(&MemoryTaskStoreOptions{MaxTasks: 2})
	never := time.Time{}
	steps := []struct {
		name    string
		put     *DetailedTask
		expires time.Time
		wantErr error
		get     string
		found   bool
	}{
		{name: "unknown task", get: "a", found: false},
		{name: "put a", put: storedTask("a", TaskStatusWorking), expires: never, get: "a", found: true},
		{name: "put b", put: storedTask("b", TaskStatusWorking), expires: never, get: "b", found: true},
		{name: "full of running tasks", put: storedTask("c", TaskStatusWorking), expires: never, wantErr: ErrTaskStoreFull, get: "c", found: false},
		{name: "replacing needs no room", put: storedTask("a", TaskStatusCompleted), expires: never, get: "a", found: true},
		{name: "the oldest finished task makes room", put: storedTask("c", TaskStatusWorking), expires: never, get: "a", found: false},
		{name: "the others stay", get: "b", found: true},
		{name: "an expired task is not kept", put: storedTask("b", TaskStatusWorking), expires: time.Now().Add(-time.Second), get: "b", found: false},
		{name: "expired tasks make room", put: storedTask("d", TaskStatusWorking), expires: time.Now().Add(20 * time.Millisecond), get: "d", found: true},
	}
	for _, s := range steps {
		if s.put != nil {
			if err := st.Put(ctx, s.put, s.expires); !errors.Is(err, s.wantErr) {
				t.Fatalf("%s: Put: %v, want %v", s.name, err, s.wantErr)
			}
		}
		got, err := st.Get(ctx, s.get)
		if s.found != (err == nil) || (!s.found && !errors.Is(err, ErrTaskNotFound)) || (s.found && got.TaskID != s.get) {
			t.Fatalf("%s: Get(%q) = %v, %v; want found %v", s.name, s.get, got, err, s.found)
		}
	}
	time.Sleep(30 * time.Millisecond)
	if _, err := st.Get(ctx, "d"); !errors.Is(err, ErrTaskNotFound) {
		t.Fatalf("Get after expiry: %v", err)
	}
	if err := st.Put(ctx, &DetailedTask{}, never); err == nil {
		t.Fatal("Put of a task without an id succeeded")
	}
}

func TestMemoryTaskStoreStaysBounded(t *testing.T) {
	ctx := context.Background()
	st := NewMemoryTaskStore(&MemoryTaskStoreOptions{MaxTasks: 10})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				id := fmt.Sprintf("%d-%d", g, i)
				if err := st.Put(ctx, storedTask(id, TaskStatusCompleted), time.Time{}); err != nil {
					t.Error(err)
					return
				}
				if _, err := st.Get(ctx, id); err != nil && !errors.Is(err, ErrTaskNotFound) {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.tasks) > 10 || len(st.order) > 2*10+16 {
		t.Fatalf("%d tasks, %d ids in order: not bounded", len(st.tasks), len(st.order))
	}
}
