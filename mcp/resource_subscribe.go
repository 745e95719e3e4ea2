package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gomcp/sdk/internal/strictjson"
)

// A subscriptionSet is the set of resource URIs a legacy session
// subscribed to with resources/subscribe. It lives in the session, so it
// goes away with it. The zero value is empty and ready to use.
type subscriptionSet struct {
	mu   sync.Mutex
	uris map[string]struct{}
}

func (s *subscriptionSet) add(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uris == nil {
		s.uris = make(map[string]struct{})
	}
	s.uris[uri] = struct{}{}
}

func (s *subscriptionSet) remove(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.uris, uri)
}

func (s *subscriptionSet) has(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.uris[uri]
	return ok
}

// subscriptionsSupported reports whether the server takes
// resources/subscribe: both handlers must be set.
func (s *Server) subscriptionsSupported() bool {
	return s.opts.SubscribeHandler != nil && s.opts.UnsubscribeHandler != nil
}

func (ss *ServerSession) subscribe(ctx context.Context, p *SubscribeParams) (*EmptyResult, error) {
	s := ss.server
	if !s.subscriptionsSupported() {
		return nil, newError(CodeMethodNotFound, "%s: this server does not support resource subscriptions", MethodSubscribe)
	}
	if p.URI == "" {
		return nil, newError(CodeInvalidParams, "%s: missing uri", MethodSubscribe)
	}
	if err := s.opts.SubscribeHandler(ctx, ss, p); err != nil {
		return nil, err
	}
	ss.root().subs.add(p.URI)
	return &EmptyResult{}, nil
}

func (ss *ServerSession) unsubscribe(ctx context.Context, p *UnsubscribeParams) (*EmptyResult, error) {
	s := ss.server
	if !s.subscriptionsSupported() {
		return nil, newError(CodeMethodNotFound, "%s: this server does not support resource subscriptions", MethodUnsubscribe)
	}
	if p.URI == "" {
		return nil, newError(CodeInvalidParams, "%s: missing uri", MethodUnsubscribe)
	}
	if err := s.opts.UnsubscribeHandler(ctx, ss, p); err != nil {
		return nil, err
	}
	ss.root().subs.remove(p.URI)
	return &EmptyResult{}, nil
}

// resourceSubscribers returns the connected legacy sessions subscribed to
// uri with resources/subscribe. Sessions that ended are not included: a
// session's subscriptions end with it. (The 2026-07-28
// subscriptions/listen streams are not sessions; they are reached through
// Server.listeners.)
func (s *Server) resourceSubscribers(uri string) []*ServerSession {
	var out []*ServerSession
	for ss := range s.Sessions() {
		if ss.subs.has(uri) {
			out = append(out, ss)
		}
	}
	return out
}

// ResourceUpdated tells the clients subscribed to params.URI that the
// resource changed, with notifications/resources/updated: sessions
// (2025-11-25 and earlier) that subscribed with resources/subscribe and, in
// 2026-07-28, listen streams whose filter names the URI. It writes to
// several clients at once, so that a slow one holds up one writer, not the
// rest, and returns when every send is done or ctx is done; the error
// joins the sends that failed (a client that disconnected meanwhile is not
// a failure).
func (s *Server) ResourceUpdated(ctx context.Context, params *ResourceUpdatedParams) error {
	if params == nil || params.URI == "" {
		return errors.New("mcp: ResourceUpdated: params.URI is empty")
	}
	s.publish(ctx, &BusEvent{Kind: BusResourceUpdated, URI: params.URI}) // event_bus.go
	return s.resourceUpdatedLocal(ctx, params)
}

// resourceUpdatedLocal delivers a resource update to this instance's
// clients.
//
// The sessions are written from a few workers at once (eachConcurrently),
// as for a list change: a slow client holds up one worker, not the rest.
// The params are encoded once for every session unless sending middleware,
// which expects typed params, or a task's context, whose id each
// notification carries, needs them typed; each session then gets its own
// copy.
func (s *Server) resourceUpdatedLocal(ctx context.Context, params *ResourceUpdatedParams) error {
	subscribers := s.resourceSubscribers(params.URI)
	if len(subscribers) == 0 {
		return s.listeners.resourceUpdated(ctx, params) // subscriptions_listen.go
	}
	errs := make([]error, len(subscribers)+1)
	encoded := s.sendingHandler() == nil && legacyTaskOf(ctx) == nil
	var raw json.RawMessage
	if encoded {
		b, err := strictjson.Marshal(params)
		if err != nil {
			return fmt.Errorf("mcp: ResourceUpdated: %w", err)
		}
		raw = b
	}
	// The listen streams are queued meanwhile.
	listened := make(chan error, 1)
	go func() { listened <- s.listeners.resourceUpdated(ctx, params) }()
	var next atomic.Int64
	eachConcurrently(subscribers, func(ss *ServerSession) {
		var p any = raw
		if !encoded {
			c := *params
			p = &c
		}
		if err := ss.notify(ctx, NotificationResourceUpdated, p); err != nil && !errors.Is(err, ErrConnectionClosed) {
			errs[next.Add(1)-1] = err
		}
	})
	errs[len(subscribers)] = <-listened
	return errors.Join(errs...)
}
