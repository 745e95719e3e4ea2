package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// A listener is one open subscriptions/listen stream (2026-07-28).
type listener struct {
	filter SubscriptionFilter
	id     any // the JSON-RPC id of the listen request: the subscription id
	// changeMark is the server's list-change count when the stream opened.
	changeMark uint64
	notify     func(ctx context.Context, method string, params any) error
}

// listeners holds the open subscriptions/listen streams of a server.
type listeners struct {
	mu  sync.Mutex
	set map[*listener]struct{}
}

func (ls *listeners) add(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = make(map[*listener]struct{})
	}
	ls.set[l] = struct{}{}
}

func (ls *listeners) remove(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	delete(ls.set, l)
}

// matching returns the listeners whose filter accepts the notification.
func (ls *listeners) matching(accept func(*SubscriptionFilter) bool) []*listener {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	var out []*listener
	for l := range ls.set {
		if accept(&l.filter) {
			out = append(out, l)
		}
	}
	return out
}

// send delivers a notification on l's stream, tagged with its
// subscription id. params must be a pointer to a params struct.
func (l *listener) send(ctx context.Context, method string, params any) error {
	if m := metaOf(params); m != nil {
		m.SubscriptionID = l.id
	}
	return l.notify(ctx, method, params)
}

// subscriptionsListen serves subscriptions/listen: it acknowledges the
// filter it honours, then delivers matching notifications until the client
// cancels the request or the connection ends.
func (ss *ServerSession) subscriptionsListen(ctx context.Context, p *SubscriptionsListenParams) (*SubscriptionsListenResult, error) {
	if ss.request == nil || ss.request.notify == nil && ss.root().conn == nil {
		return nil, newError(CodeInvalidRequest, "subscriptions/listen needs a stream to deliver notifications on")
	}
	s := ss.server
	filter := s.honoured(p.Notifications)
	taskIDs, err := ss.honouredTaskIDs(ctx, p.Notifications.TaskIDs) // tasks extension (task_server.go)
	if err != nil {
		return nil, err
	}
	filter.TaskIDs = taskIDs
	l := &listener{filter: filter, id: ss.request.id.Raw(), notify: ss.notify, changeMark: s.changeMark()}
	ack := &SubscriptionsAcknowledgedParams{Notifications: l.filter}
	if err := l.send(ctx, NotificationSubscriptionsAcknowledged, ack); err != nil {
		return nil, err
	}
	s.listeners.add(l)
	defer s.listeners.remove(l)
	s.sendTaskStates(ctx, l) // tasks extension (task_server.go)
	// The stream also ends gracefully when its connection starts closing
	// (a stdio client closed its input), so the result is written before
	// the connection ends.
	var connClosing <-chan struct{}
	if c, ok := ss.root().conn.(interface{ Closing() <-chan struct{} }); ok {
		connClosing = c.Closing()
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.shutdown:
	case <-connClosing:
	}
	res := &SubscriptionsListenResult{}
	res.Meta.SubscriptionID = l.id
	return res, nil
}

// honoured returns the part of a requested filter the server will honour:
// list changes for the kinds of features it has, and resource updates when
// it serves resources.
func (s *Server) honoured(f SubscriptionFilter) SubscriptionFilter {
	caps := s.capabilities()
	out := SubscriptionFilter{
		ToolsListChanged:     f.ToolsListChanged && caps.Tools != nil,
		PromptsListChanged:   f.PromptsListChanged && caps.Prompts != nil,
		ResourcesListChanged: f.ResourcesListChanged && caps.Resources != nil,
	}
	if caps.Resources != nil {
		out.ResourceSubscriptions = slices.Clone(f.ResourceSubscriptions)
	}
	return out
}

// listChangedDelay is how long the server gathers list changes before it
// notifies clients, so that a burst of AddX/RemoveX calls sends one
// notification per list.
const listChangedDelay = 10 * time.Millisecond

// listChanged schedules a list_changed notification for every client that
// can receive it: initialized legacy sessions and 2026-07-28 listeners that
// asked for it. Changes within listChangedDelay are coalesced.
func (s *Server) listChanged(method string) {
	s.markListChanged(method) // event_bus.go
	s.scheduleListChanged(method)
}

// scheduleListChanged schedules the notification of a list change made
// here or, through the event bus, on another instance.
func (s *Server) scheduleListChanged(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changeSeq++
	if s.pendingChanges == nil {
		s.pendingChanges = make(map[string]uint64)
	}
	_, scheduled := s.pendingChanges[method]
	s.pendingChanges[method] = s.changeSeq
	if !scheduled {
		time.AfterFunc(listChangedDelay, func() { s.flushListChanged(method) })
	}
}

// changeMark returns the number of list changes so far: a session or
// listener that starts now is told only of later changes.
func (s *Server) changeMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changeSeq
}

func (s *Server) flushListChanged(method string) {
	s.mu.Lock()
	seq := s.pendingChanges[method]
	delete(s.pendingChanges, method)
	s.mu.Unlock()
	s.publishListChanged(method) // event_bus.go
	ctx := context.Background()
	for ss := range s.Sessions() {
		if ss.era.Load() == eraLegacy && ss.initialized.Load() && ss.changeMark < seq {
			if err := ss.notify(ctx, method, &struct{}{}); err != nil && !errors.Is(err, ErrConnectionClosed) {
				s.logger().Warn("mcp: dropped notification", "method", method, "error", err)
			}
		}
	}
	accept := map[string]func(*SubscriptionFilter) bool{
		NotificationToolListChanged:     func(f *SubscriptionFilter) bool { return f.ToolsListChanged },
		NotificationPromptListChanged:   func(f *SubscriptionFilter) bool { return f.PromptsListChanged },
		NotificationResourceListChanged: func(f *SubscriptionFilter) bool { return f.ResourcesListChanged },
	}[method]
	if accept == nil {
		return
	}
	for _, l := range s.listeners.matching(accept) {
		if l.changeMark < seq {
			if err := l.send(ctx, method, &ToolListChangedParams{}); err != nil && !errors.Is(err, ErrConnectionClosed) {
				s.logger().Warn("mcp: dropped notification", "method", method, "error", err)
			}
		}
	}
}

// resourceUpdated delivers a resource update to the listen streams whose
// filter names its URI. It returns the first delivery that failed.
func (ls *listeners) resourceUpdated(ctx context.Context, p *ResourceUpdatedParams) error {
	var firstErr error
	for _, l := range ls.matching(func(f *SubscriptionFilter) bool { return slices.Contains(f.ResourceSubscriptions, p.URI) }) {
		c := *p
		if err := l.send(ctx, NotificationResourceUpdated, &c); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// Listen opens a subscriptions/listen stream (2026-07-28): the server
// delivers the notifications params.Notifications asks for to the
// client's handlers (ToolListChangedHandler, ResourceUpdatedHandler, ...;
// their params carry the subscription id in Meta.SubscriptionID) until ctx
// is cancelled, which ends the stream. Listen blocks until then and returns
// ctx.Err(), or the server's result if it ends the stream itself.
func (cs *ClientSession) Listen(ctx context.Context, params *SubscriptionsListenParams) (*SubscriptionsListenResult, error) {
	if !cs.modern {
		return nil, fmt.Errorf("%w: subscriptions/listen needs protocol %s; use Subscribe and the list-changed handlers", ErrNotSupported, Version20260728)
	}
	return clientCall[SubscriptionsListenParams, SubscriptionsListenResult](ctx, cs, MethodSubscriptionsListen, params)
}
