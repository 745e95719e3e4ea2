package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrTaskNotFound reports a task id a TaskStore does not know: never
// created, or expired.
var ErrTaskNotFound = errors.New("mcp: task not found")

// ErrTaskStoreFull reports that a TaskStore cannot take another task.
var ErrTaskStoreFull = errors.New("mcp: too many tasks")

// A TaskStore keeps the observable state of a server's tasks: what
// tasks/get returns. The server writes every change of a task with Put and
// serves tasks/get, tasks/update and tasks/cancel from Get, and, for tasks
// of protocol 2025-11-25, tasks/result and tasks/list (the tasks a session
// created, as far as the store still holds them). A store shared
// by several server processes lets any of them answer tasks/get; the
// handler of a task runs in the process that created it, which is where
// answers to its input requests must arrive (HTTP clients send the task id
// in the Mcp-Name header so that load balancers can route them).
//
// Implementations must be safe for concurrent use. The server never
// changes a *DetailedTask after passing it to Put, and never changes one
// returned by Get.
type TaskStore interface {
	// Put creates or replaces the state of task.TaskID. The task may be
	// forgotten after expires (never, if expires is zero). Put must not
	// return before a Get of the task would see the new state.
	Put(ctx context.Context, task *DetailedTask, expires time.Time) error
	// Get returns the state of a task, or an error wrapping
	// ErrTaskNotFound.
	Get(ctx context.Context, taskID string) (*DetailedTask, error)
}

// DefaultMaxTasks is the number of tasks a MemoryTaskStore keeps when
// MemoryTaskStoreOptions.MaxTasks is zero.
const DefaultMaxTasks = 10000

// MemoryTaskStoreOptions configure a MemoryTaskStore. A nil
// *MemoryTaskStoreOptions means defaults.
type MemoryTaskStoreOptions struct {
	// MaxTasks bounds the tasks kept (default DefaultMaxTasks). When the
	// store is full, a new task pushes out the oldest finished one; if
	// every task is still running, Put of a new task fails with
	// ErrTaskStoreFull.
	MaxTasks int
}

// A MemoryTaskStore is a TaskStore in memory: bounded, and forgetting each
// task when it expires.
type MemoryTaskStore struct {
	max int

	mu    sync.Mutex
	tasks map[string]*memoryTask
	order []string // task ids, oldest first; may hold ids already removed
}

type memoryTask struct {
	task    *DetailedTask
	expires time.Time
}

// NewMemoryTaskStore returns an empty MemoryTaskStore.
func NewMemoryTaskStore(opts *MemoryTaskStoreOptions) *MemoryTaskStore {
	st := &MemoryTaskStore{max: DefaultMaxTasks, tasks: make(map[string]*memoryTask)}
	if opts != nil && opts.MaxTasks > 0 {
		st.max = opts.MaxTasks
	}
	return st
}

// Put implements TaskStore.
func (st *MemoryTaskStore) Put(_ context.Context, task *DetailedTask, expires time.Time) error {
	if task == nil || task.TaskID == "" {
		return errors.New("mcp: MemoryTaskStore.Put: task without an id")
	}
	now := time.Now()
	st.mu.Lock()
	defer st.mu.Unlock()
	if !expires.IsZero() && !now.Before(expires) {
		delete(st.tasks, task.TaskID) // already expired: nothing to keep
		return nil
	}
	if mt, ok := st.tasks[task.TaskID]; ok {
		mt.task, mt.expires = task, expires
		return nil
	}
	if len(st.tasks) >= st.max && !st.evictLocked(now) {
		return fmt.Errorf("%w: the store holds %d running tasks", ErrTaskStoreFull, len(st.tasks))
	}
	st.tasks[task.TaskID] = &memoryTask{task: task, expires: expires}
	st.order = append(st.order, task.TaskID)
	st.compactLocked()
	return nil
}

// Get implements TaskStore.
func (st *MemoryTaskStore) Get(_ context.Context, taskID string) (*DetailedTask, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	mt, ok := st.tasks[taskID]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrTaskNotFound, taskID)
	}
	if !mt.expires.IsZero() && !time.Now().Before(mt.expires) {
		delete(st.tasks, taskID)
		return nil, fmt.Errorf("%w: %q has expired", ErrTaskNotFound, taskID)
	}
	return mt.task, nil
}

// Len returns the number of tasks held, including expired ones not yet
// removed.
func (st *MemoryTaskStore) Len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.tasks)
}

// evictLocked makes room for one task: it removes every expired task, or
// else the oldest terminal one. It reports whether there is room.
func (st *MemoryTaskStore) evictLocked(now time.Time) bool {
	for id, mt := range st.tasks {
		if !mt.expires.IsZero() && !now.Before(mt.expires) {
			delete(st.tasks, id)
		}
	}
	if len(st.tasks) < st.max {
		st.compactLocked()
		return true
	}
	for i, id := range st.order {
		if mt, ok := st.tasks[id]; ok && mt.task.Terminal() {
			delete(st.tasks, id)
			st.order = append(st.order[:i:i], st.order[i+1:]...)
			st.compactLocked()
			return true
		}
	}
	return false
}

// compactLocked drops the ids of removed tasks from the order.
func (st *MemoryTaskStore) compactLocked() {
	if len(st.order) <= 2*len(st.tasks)+16 {
		return
	}
	kept := st.order[:0]
	for _, id := range st.order {
		if _, ok := st.tasks[id]; ok {
			kept = append(kept, id)
		}
	}
	clear(st.order[len(kept):])
	st.order = kept
}
