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
// way to join several servers of one process. Publish calls every
// subscriber before it returns.
type MemoryEventBus struct {
	mu   sync.Mutex
	next int
	subs map[int]*busSubscriber
}

type busSubscriber struct {
	mu sync.Mutex // one call at a time
	fn func(*BusEvent)
}

// NewMemoryEventBus returns a bus with no subscribers.
func NewMemoryEventBus() *MemoryEventBus { return &MemoryEventBus{subs: map[int]*busSubscriber{}} }

// Publish calls every subscriber with a copy of e.
func (b *MemoryEventBus) Publish(_ context.Context, e *BusEvent) error {
	b.mu.Lock()
	keys := make([]int, 0, len(b.subs))
	for k := range b.subs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	subs := make([]*busSubscriber, 0, len(keys))
	for _, k := range keys {
		subs = append(subs, b.subs[k])
	}
	b.mu.Unlock()
	for _, s := range subs {
		c := *e
		c.Data = slices.Clone(e.Data)
		s.mu.Lock()
		s.fn(&c)
		s.mu.Unlock()
	}
	return nil
}

// Subscribe adds fn to the subscribers.
func (b *MemoryEventBus) Subscribe(_ context.Context, fn func(*BusEvent)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	id := b.next
	b.subs[id] = &busSubscriber{fn: fn}
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}, nil
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

// publishListChanged publishes a flushed list change made here.
func (s *Server) publishListChanged(method string) {
	if s.opts.EventBus == nil {
		return
	}
	s.scale.mu.Lock()
	send := s.scale.toSend[method]
	delete(s.scale.toSend, method)
	s.scale.mu.Unlock()
	if kind := listChangedKinds[method]; send && kind != "" {
		s.publish(context.Background(), &BusEvent{Kind: kind})
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
	case BusResourceUpdated:
		if e.URI != "" {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
				defer cancel()
				_ = s.resourceUpdatedLocal(ctx, &ResourceUpdatedParams{URI: e.URI})
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
