package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// subscriptionRecorder records the calls of the subscription handlers; a
// subscription to "x://forbidden" is refused.
type subscriptionRecorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *subscriptionRecorder) options() *ServerOptions {
	return &ServerOptions{
		SubscribeHandler: func(ctx context.Context, ss *ServerSession, p *SubscribeParams) error {
			if p.URI == "x://forbidden" {
				return newError(CodeInvalidParams, "cannot watch %s", p.URI)
			}
			r.record("subscribe " + p.URI)
			return nil
		},
		UnsubscribeHandler: func(ctx context.Context, ss *ServerSession, p *UnsubscribeParams) error {
			r.record("unsubscribe " + p.URI)
			return nil
		},
	}
}

func (r *subscriptionRecorder) record(call string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
}

func (r *subscriptionRecorder) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// updateCollector is a client's ResourceUpdatedHandler that sends the
// URIs it is told about on a channel.
func updateCollector() (chan string, func(context.Context, *ClientSession, *ResourceUpdatedParams)) {
	ch := make(chan string, 16)
	return ch, func(_ context.Context, _ *ClientSession, p *ResourceUpdatedParams) { ch <- p.URI }
}

func TestSubscriptionsLegacy(t *testing.T) {
	for _, version := range []string{Version20251125, Version20250618, Version20250326, Version20241105} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			var rec subscriptionRecorder
			s := NewServer("s", "v1", rec.options())
			s.AddResources(textResource("x://a", "a"), textResource("x://b", "b"))
			updatesA, handlerA := updateCollector()
			updatesB, handlerB := updateCollector()
			csA, ssA := connect(t, s, &ClientOptions{ProtocolVersion: version, ResourceUpdatedHandler: handlerA})
			csB, _ := connect(t, s, &ClientOptions{ProtocolVersion: version, ResourceUpdatedHandler: handlerB})
			if !csA.ServerCapabilities().Resources.Subscribe {
				t.Fatal("resources.subscribe not declared with both handlers set")
			}
			if err := csA.Subscribe(ctx, &SubscribeParams{URI: "x://a"}); err != nil {
				t.Fatal(err)
			}
			if err := csB.Subscribe(ctx, &SubscribeParams{URI: "x://b"}); err != nil {
				t.Fatal(err)
			}
			if got := s.resourceSubscribers("x://a"); !slices.Equal(got, []*ServerSession{ssA}) {
				t.Errorf("subscribers of x://a = %v, want session A only", got)
			}

			// Each update reaches only the sessions subscribed to its URI.
			if err := s.ResourceUpdated(ctx, &ResourceUpdatedParams{URI: "x://a"}); err != nil {
				t.Fatal(err)
			}
			if err := s.ResourceUpdated(ctx, &ResourceUpdatedParams{URI: "x://b"}); err != nil {
				t.Fatal(err)
			}
			if err := s.ResourceUpdated(ctx, &ResourceUpdatedParams{URI: "x://nobody"}); err != nil {
				t.Fatal(err)
			}
			expectUpdate(t, updatesA, "x://a")
			expectUpdate(t, updatesB, "x://b")
			expectNoUpdate(t, csA, updatesA)
			expectNoUpdate(t, csB, updatesB)

			// After unsubscribing, nothing more arrives.
			if err := csA.Unsubscribe(ctx, &UnsubscribeParams{URI: "x://a"}); err != nil {
				t.Fatal(err)
			}
			if err := s.ResourceUpdated(ctx, &ResourceUpdatedParams{URI: "x://a"}); err != nil {
				t.Fatal(err)
			}
			expectNoUpdate(t, csA, updatesA)

			// A handler's error reaches the client and records nothing.
			err := csA.Subscribe(ctx, &SubscribeParams{URI: "x://forbidden"})
			var werr *JSONRPCError
			if !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
				t.Errorf("refused subscription: %v, want the handler's -32602", err)
			}
			if len(s.resourceSubscribers("x://forbidden")) != 0 {
				t.Error("a refused subscription was recorded")
			}

			// A session that ends is no longer a subscriber.
			csB.Close()
			waitUntil(t, func() bool { return len(s.resourceSubscribers("x://b")) == 0 })
			if err := s.ResourceUpdated(ctx, &ResourceUpdatedParams{URI: "x://b"}); err != nil {
				t.Errorf("ResourceUpdated after the subscriber left: %v", err)
			}

			want := []string{"subscribe x://a", "subscribe x://b", "unsubscribe x://a"}
			got := rec.recorded()
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("handler calls = %q, want %q", got, want)
			}
		})
	}
}

func TestSubscriptionsModern(t *testing.T) {
	var rec subscriptionRecorder
	s := NewServer("s", "v1", rec.options())
	s.AddResources(textResource("x://a", "a"))
	cs, _ := connect(t, s, nil)
	if !cs.ServerCapabilities().Resources.Subscribe {
		t.Error("resources.subscribe not declared in 2026-07-28")
	}
	if err := cs.Subscribe(context.Background(), &SubscribeParams{URI: "x://a"}); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Subscribe in 2026-07-28: %v, want ErrNotSupported", err)
	}
	if err := cs.Unsubscribe(context.Background(), &UnsubscribeParams{URI: "x://a"}); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Unsubscribe in 2026-07-28: %v, want ErrNotSupported", err)
	}
	if len(rec.recorded()) != 0 {
		t.Errorf("handlers called: %q", rec.recorded())
	}
}

// TestSubscribeWireErrors sends resources/subscribe on the wire where the
// server must refuse it: a server without handlers, an empty URI, and the
// 2026-07-28 era, which does not have the method.
func TestSubscribeWireErrors(t *testing.T) {
	var rec subscriptionRecorder
	legacyInit := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	modernMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
	tests := []struct {
		name     string
		opts     *ServerOptions
		messages []string
		wantCode ErrorCode
	}{
		{"no handlers", nil, []string{legacyInit, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x://a"}}`}, CodeMethodNotFound},
		{"no handlers unsubscribe", nil, []string{legacyInit, `{"jsonrpc":"2.0","id":1,"method":"resources/unsubscribe","params":{"uri":"x://a"}}`}, CodeMethodNotFound},
		{"empty uri", rec.options(), []string{legacyInit, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{}}`}, CodeInvalidParams},
		{"modern", rec.options(), []string{`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"x://a",` + modernMeta + `}}`}, CodeMethodNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer("s", "v1", tt.opts)
			s.AddResources(textResource("x://a", "a"))
			resp := exchangeWire(t, s, tt.messages)
			last := resp[len(resp)-1]
			if last.Error == nil || last.Error.Code != tt.wantCode {
				t.Errorf("response %+v, want error %d", last, tt.wantCode)
			}
		})
	}
	if len(rec.recorded()) != 0 {
		t.Errorf("handlers called: %q", rec.recorded())
	}
}

func TestResourceUpdatedNeedsURI(t *testing.T) {
	s := NewServer("s", "v1", nil)
	if err := s.ResourceUpdated(context.Background(), nil); err == nil {
		t.Error("ResourceUpdated(nil) succeeded")
	}
	if err := s.ResourceUpdated(context.Background(), &ResourceUpdatedParams{}); err == nil {
		t.Error("ResourceUpdated without a URI succeeded")
	}
}

func expectUpdate(t *testing.T, ch chan string, uri string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != uri {
			t.Errorf("update for %s, want %s", got, uri)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no update for %s", uri)
	}
}

// expectNoUpdate checks that cs was told of no update. Notifications are
// handled in order on the client's reading goroutine, so once a ping sent
// after the updates is answered, any update has been handled.
func expectNoUpdate(t *testing.T, cs *ClientSession, ch chan string) {
	t.Helper()
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-ch:
		t.Errorf("unexpected update for %s", got)
	default:
	}
}

// TestResourceUpdatedWire checks what a legacy session subscribed to a
// resource receives on its GET stream: the same bytes whether the params
// are encoded once for every session (no sending middleware) or sent typed
// through sending middleware, which gets a copy of the caller's params for
// each session.
func TestResourceUpdatedWire(t *testing.T) {
	const want = `data: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"x://a"}}`
	for _, withMiddleware := range []bool{false, true} {
		t.Run(fmt.Sprintf("middleware=%v", withMiddleware), func(t *testing.T) {
			var rec subscriptionRecorder
			server, h, ts, _ := newHTTPTest(t, nil, rec.options())
			server.AddResources(textResource("x://a", "a"))
			var mu sync.Mutex
			var seen []*ResourceUpdatedParams
			if withMiddleware {
				server.AddSendingMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
					return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
						if method == NotificationResourceUpdated {
							p, ok := params.(*ResourceUpdatedParams)
							if !ok {
								t.Errorf("middleware got %T, want *ResourceUpdatedParams", params)
							}
							mu.Lock()
							seen = append(seen, p)
							mu.Unlock()
						}
						return next(ctx, ss, method, params)
					}
				})
			}
			const sessions = 3
			var streams []*wireStream
			for range sessions {
				sid := legacySession(t, ts)
				c := &rawClient{t: t, url: ts.URL, sid: sid, version: Version20251125}
				resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"x://a"}}`, nil)
				if msgs := readMessages(t, resp); len(msgs) != 1 || msgs[0]["result"] == nil {
					t.Fatalf("resources/subscribe: %v", msgs)
				}
				ws := openWire(t, ts, getRequest(sid, ""))
				waitUntil(t, func() bool { return standaloneAttached(h.session(sid)) })
				streams = append(streams, ws)
			}
			params := &ResourceUpdatedParams{URI: "x://a"}
			if err := server.ResourceUpdated(context.Background(), params); err != nil {
				t.Fatal(err)
			}
			for i, ws := range streams {
				if ev := ws.chunkWith(NotificationResourceUpdated); !strings.Contains(ev, want+"\n\n") {
					t.Errorf("session %d: event %q, want %q", i, ev, want)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if !withMiddleware {
				return
			}
			if len(seen) != sessions {
				t.Fatalf("middleware saw %d notifications, want %d", len(seen), sessions)
			}
			for i, p := range seen {
				if p == params || p.URI != "x://a" || (i > 0 && p == seen[i-1]) {
					t.Errorf("notification %d: params %p %+v, want a copy of the caller's %p", i, p, p, params)
				}
			}
		})
	}
}
