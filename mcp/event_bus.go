package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Kinds of BusEvent.
const (
	// BusToolsListChanged, BusPromptsListChanged and BusResourcesListChanged
	// report that a server's list of tools, prompts or resources changed.
	BusToolsListChanged     = "tools_list_changed"
	BusPromptsListChanged   = "prompts_list_changed"
	BusResourcesListChanged = "resources_list_changed"
	// BusListChanged reports that a list declared with
	// Server.AddListChangedFilter, such as the Events extension's event
	// types, changed; Method names its notification.
	BusListChanged = "list_changed"
	// BusResourceUpdated reports that the resource URI changed.
	BusResourceUpdated = "resource_updated"
	// BusTaskStatus carries the new state of task TaskID (Data: the task).
	BusTaskStatus = "task_status"
	// BusTaskCancel asks the instance running task TaskID to cancel it.
	BusTaskCancel = "task_cancel"
	// BusTaskInput carries a client's answers to the input requests of
	// task TaskID (Data: the inputResponses object) to the instance
	// running it.
	BusTaskInput = "task_input"
)

// A BusEvent is what one server instance tells the others through an
// EventBus: a change that clients connected to any instance may need to
// hear about, or a message for the instance running a task.
type BusEvent struct {
	// Kind is one of the Bus* constants.
	Kind string `json:"kind"`
	// Origin identifies the instance that published the event, which
	// ignores it when it comes back.
	Origin string `json:"origin,omitempty"`
	// URI is the resource of a BusResourceUpdated event.
	URI string `json:"uri,omitempty"`
	// Method is the notification of a BusListChanged event, such as
	// "notifications/events/list_changed".
	Method string `json:"method,omitempty"`
	// TaskID is the task of the BusTask* events.
	TaskID string `json:"taskId,omitempty"`
	// Data is the task state (BusTaskStatus) or the input responses
	// (BusTaskInput).
	Data json.RawMessage `json:"data,omitempty"`
}

// An EventBus carries BusEvents between the instances of a server that
// run behind a load balancer: list changes, resource updates and task
// status reach the subscriptions/listen streams (2026-07-28) and the GET
// streams of legacy sessions held by every instance. Delivery is at most
// once: clients can re-fetch a list, and task state is also in the
// TaskStore.
//
// Implementations must be safe for concurrent use and must call each
// subscriber's function from one goroutine at a time, in publishing order
// for events of one publisher.
type EventBus interface {
	// Publish sends e to every subscriber, the publishing instance's own
	// included. It returns an error if e could not be sent.
	Publish(ctx context.Context, e *BusEvent) error
	// Subscribe calls fn for each event published after Subscribe
	// returns, until unsubscribe is called (which may be called more than
	// once).
	Subscribe(ctx context.Context, fn func(*BusEvent)) (unsubscribe func(), err error)
}

// A MemoryEventBus is an EventBus inside one process: the default, and a
// way to join several servers of one process. Each subscriber gets the
// events in publishing order on a goroutine of its own, which runs only
// while events wait; a subscriber more than maxQueued events behind loses
// the newest.
type MemoryEventBus struct {
	mu   sync.Mutex
	next int
	subs map[int]*serialQueue[*BusEvent]
}

var _ EventBus = (*MemoryEventBus)(nil)

// NewMemoryEventBus returns a bus with no subscribers.
func NewMemoryEventBus() *MemoryEventBus {
	return &MemoryEventBus{subs: map[int]*serialQueue[*BusEvent]{}}
}

// Publish queues a copy of e for every subscriber.
func (b *MemoryEventBus) Publish(_ context.Context, e *BusEvent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	keys := make([]int, 0, len(b.subs))
	for k := range b.subs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c := *e
		c.Data = slices.Clone(e.Data)
		b.subs[k].push(&c)
	}
	return nil
}

// Subscribe adds fn to the subscribers.
func (b *MemoryEventBus) Subscribe(_ context.Context, fn func(*BusEvent)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	id := b.next
	q := &serialQueue[*BusEvent]{fn: fn}
	b.subs[id] = q
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
		q.close()
	}, nil
}

// maxQueued bounds the events or messages waiting for one subscriber of a
// MemoryEventBus or MemorySessionRouter.
const maxQueued = 10_000

// A serialQueue calls fn with each value pushed, in order, one at a time,
// on a goroutine that exists only while values wait.
type serialQueue[T any] struct {
	fn      func(T)
	mu      sync.Mutex
	items   []T
	running bool
	closed  bool
}

func (q *serialQueue[T]) push(v T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.items) >= maxQueued {
		return
	}
	q.items = append(q.items, v)
	if !q.running {
		q.running = true
		go q.drain()
	}
}

func (q *serialQueue[T]) drain() {
	for {
		q.mu.Lock()
		if len(q.items) == 0 || q.closed {
			q.items, q.running = nil, false
			q.mu.Unlock()
			return
		}
		v := q.items[0]
		var zero T
		q.items[0] = zero
		q.items = q.items[1:]
		q.mu.Unlock()
		q.fn(v)
	}
}

// close drops the values waiting and stops later calls.
func (q *serialQueue[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

// busTimeout bounds a publish and the deliveries of one received event.
const busTimeout = 5 * time.Second

// scaleState is what a Server keeps to share its changes with other
// instances through ServerOptions.EventBus.
type scaleState struct {
	origin string // this server's instance id
	unsub  func()
	mu     sync.Mutex
	toSend map[string]bool // list-changed methods to publish at the next flush
}

// listChangedKinds maps list_changed methods to bus event kinds.
var listChangedKinds = map[string]string{
	NotificationToolListChanged:     BusToolsListChanged,
	NotificationPromptListChanged:   BusPromptsListChanged,
	NotificationResourceListChanged: BusResourcesListChanged,
}

// startBus subscribes the server to its event bus, if it has one.
func (s *Server) startBus() {
	b := s.opts.EventBus
	if b == nil {
		return
	}
	s.scale.origin = rand.Text()
	unsub, err := b.Subscribe(context.Background(), s.onBusEvent)
	if err != nil {
		s.logger().Error("mcp: cannot subscribe to the event bus: changes made by other instances will not reach this one's clients", "error", err)
		return
	}
	s.scale.unsub = unsub
}

// stopBus ends the server's bus subscription.
func (s *Server) stopBus() {
	if s.scale.unsub != nil {
		s.scale.unsub()
	}
}

// publish sends e to the other instances; failures are logged (delivery
// to this instance's clients does not depend on the bus).
func (s *Server) publish(ctx context.Context, e *BusEvent) {
	b := s.opts.EventBus
	if b == nil {
		return
	}
	e.Origin = s.scale.origin
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), busTimeout)
	defer cancel()
	if err := b.Publish(ctx, e); err != nil {
		s.logger().Warn("mcp: publishing to the event bus failed: other instances' clients miss this change", "kind", e.Kind, "error", err)
	}
}

// markListChanged records that a list change made here is to be published
// at the next flush of method.
func (s *Server) markListChanged(method string) {
	if s.opts.EventBus == nil {
		return
	}
	s.scale.mu.Lock()
	if s.scale.toSend == nil {
		s.scale.toSend = map[string]bool{}
	}
	s.scale.toSend[method] = true
	s.scale.mu.Unlock()
}

// publishListChanged publishes a flushed list change made here: of
// tools, prompts or resources, or of a list declared with
// AddListChangedFilter (BusListChanged).
func (s *Server) publishListChanged(method string) {
	if s.opts.EventBus == nil {
		return
	}
	s.scale.mu.Lock()
	send := s.scale.toSend[method]
	delete(s.scale.toSend, method)
	s.scale.mu.Unlock()
	switch kind := listChangedKinds[method]; {
	case !send:
	case kind != "":
		s.publish(context.Background(), &BusEvent{Kind: kind})
	case s.addedListMember(method) != "":
		s.publish(context.Background(), &BusEvent{Kind: BusListChanged, Method: method})
	}
}

// onBusEvent delivers an event another instance published to this
// instance's clients.
func (s *Server) onBusEvent(e *BusEvent) {
	if e.Origin == s.scale.origin {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	switch e.Kind {
	case BusToolsListChanged, BusPromptsListChanged, BusResourcesListChanged:
		for method, kind := range listChangedKinds {
			if kind == e.Kind {
				s.scheduleListChanged(method)
			}
		}
	case BusListChanged:
		// A list this instance does not keep is not announced to its
		// clients: they could not have asked for it.
		if e.Method != "" && s.addedListMember(e.Method) != "" {
			s.scheduleListChanged(e.Method)
		}
	case BusResourceUpdated:
		if e.URI != "" {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
				defer cancel()
				// No caller waits for an event from the bus: what failed
				// (sessions not reached) is logged.
				if err := s.resourceUpdatedLocal(ctx, &ResourceUpdatedParams{URI: e.URI}); err != nil {
					s.logger().Warn("mcp: delivering a resource update from the event bus failed", "uri", e.URI, "error", err)
				}
			}()
		}
	case BusTaskStatus:
		var t DetailedTask
		if err := decodeResult(e.Data, &t); err == nil && t.TaskID == e.TaskID {
			s.publishTaskLocal(ctx, &t)
		}
	case BusTaskCancel:
		if r := s.taskEngine().run(e.TaskID); r != nil {
			if err := r.cancelTask(ctx); err != nil {
				s.logger().Warn("mcp: cancelling a task for another instance failed", "task", e.TaskID, "error", err)
			}
		}
	case BusTaskInput:
		var answers map[string]json.RawMessage
		if r := s.taskEngine().run(e.TaskID); r != nil && decodeResult(e.Data, &answers) == nil {
			if err := r.answer(ctx, answers); err != nil {
				s.logger().Warn("mcp: answering a task's input requests for another instance failed", "task", e.TaskID, "error", err)
			}
		}
	}
}

// forwardTask tells the other instances about a task request this
// instance cannot serve itself because the task runs elsewhere.
func (s *Server) forwardTask(ctx context.Context, kind, taskID string, data any) {
	if s.opts.EventBus == nil {
		return
	}
	e := &BusEvent{Kind: kind, TaskID: taskID}
	if data != nil {
		b, err := strictjson.Marshal(data)
		if err != nil {
			return
		}
		e.Data = b
	}
	s.publish(ctx, e)
}
