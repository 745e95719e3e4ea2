package mcp

import (
	"context"
	"errors"
	"sync"
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
// 2026-07-28, listen
// streams whose filter names the URI. It sends to all of them at once and
// returns when every send is done or ctx is done; the error joins the
// sends that failed (a client that disconnected meanwhile is not a
// failure).
func (s *Server) ResourceUpdated(ctx context.Context, params *ResourceUpdatedParams) error {
	if params == nil || params.URI == "" {
		return errors.New("mcp: ResourceUpdated: params.URI is empty")
	}
	s.publish(ctx, &BusEvent{Kind: BusResourceUpdated, URI: params.URI}) // event_bus.go
	return s.resourceUpdatedLocal(ctx, params)
}

// resourceUpdatedLocal delivers a resource update to this instance's
// clients.
func (s *Server) resourceUpdatedLocal(ctx context.Context, params *ResourceUpdatedParams) error {
	subscribers := s.resourceSubscribers(params.URI)
	errs := make([]error, len(subscribers)+1)
	var wg sync.WaitGroup
	for i, ss := range subscribers {
		wg.Go(func() {
			if err := ss.notify(ctx, NotificationResourceUpdated, params); err != nil && !errors.Is(err, ErrConnectionClosed) {
				errs[i] = err
			}
		})
	}
	errs[len(subscribers)] = s.listeners.resourceUpdated(ctx, params) // subscriptions_listen.go
	wg.Wait()
	return errors.Join(errs...)
}
