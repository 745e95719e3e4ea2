package mcp

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestListenDeliversListChangesAndResourceUpdates(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	server.AddResources(&ServerResource{Resource: &Resource{URI: "file:///a.txt", Name: "a"}, Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
		return &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents("file:///a.txt", "text/plain", "A")}}, nil
	}})
	var mu sync.Mutex
	var got []string
	var ack *SubscriptionsAcknowledgedParams
	record := func(what string, id any) {
		mu.Lock()
		defer mu.Unlock()
		if id == nil {
			what += " without subscription id"
		}
		got = append(got, what)
	}
	cs, _ := connect(t, server, &ClientOptions{
		SubscriptionsAcknowledgedHandler: func(_ context.Context, _ *ClientSession, p *SubscriptionsAcknowledgedParams) {
			mu.Lock()
			ack = p
			mu.Unlock()
		},
		ToolListChangedHandler: func(_ context.Context, _ *ClientSession, p *ToolListChangedParams) {
			record("tools", p.Meta.SubscriptionID)
		},
		PromptListChangedHandler: func(_ context.Context, _ *ClientSession, p *PromptListChangedParams) {
			record("prompts", p.Meta.SubscriptionID)
		},
		ResourceUpdatedHandler: func(_ context.Context, _ *ClientSession, p *ResourceUpdatedParams) {
			record("updated "+p.URI, p.Meta.SubscriptionID)
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.Listen(ctx, &SubscriptionsListenParams{Notifications: SubscriptionFilter{
			ToolsListChanged: true, PromptsListChanged: true, ResourceSubscriptions: []string{"file:///a.txt"},
		}})
		done <- err
	}()
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return ack != nil })
	mu.Lock()
	if !ack.Notifications.ToolsListChanged || ack.Notifications.PromptsListChanged || len(ack.Notifications.ResourceSubscriptions) != 1 {
		t.Errorf("acknowledged %+v: want tools and the resource, not prompts (the server has none)", ack.Notifications)
	}
	mu.Unlock()
	// A burst of changes gives one notification.
	server.AddTools(&ServerTool{Tool: &Tool{Name: "t1", InputSchema: map[string]any{"type": "object"}}, Handler: echoTool().Handler})
	server.RemoveTools("t1")
	server.RemoveTools("echo")
	if err := server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: "file:///a.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: "file:///other.txt"}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= 2 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Listen returned %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := map[string]bool{"tools": true, "updated file:///a.txt": true}
	if len(got) != 2 || !want[got[0]] || !want[got[1]] {
		t.Fatalf("notifications %q, want one tools change and one update of file:///a.txt", got)
	}
}

func TestLegacyListChangedIsCoalesced(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	var mu sync.Mutex
	n := 0
	connect(t, server, &ClientOptions{ProtocolVersion: Version20251125, ToolListChangedHandler: func(context.Context, *ClientSession, *ToolListChangedParams) {
		mu.Lock()
		n++
		mu.Unlock()
	}})
	for range 20 {
		server.AddTools(&ServerTool{Tool: &Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, Handler: echoTool().Handler})
		server.RemoveTools("t")
	}
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return n >= 1 })
	server.Close()
	mu.Lock()
	defer mu.Unlock()
	if n > 2 {
		t.Fatalf("40 changes gave %d notifications; want them coalesced", n)
	}
}

// A client may change a list the moment it reads the acknowledgement of
// its listen stream (through another request, possibly on another
// instance); that change must reach the stream. The sending middleware
// makes the change while the acknowledgement is being written and waits
// until the server has flushed it.
func TestListenSeesChangesMadeAsItIsAcknowledged(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	server.AddSendingMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if method == NotificationSubscriptionsAcknowledged {
				server.AddTools(&ServerTool{Tool: &Tool{Name: "t1", InputSchema: map[string]any{"type": "object"}}, Handler: echoTool().Handler})
				time.Sleep(5 * listChangedDelay) // the change is flushed before the acknowledgement is written
			}
			return next(ctx, ss, method, params)
		}
	})
	changed := make(chan struct{}, 1)
	cs, _ := connect(t, server, &ClientOptions{
		ToolListChangedHandler: func(context.Context, *ClientSession, *ToolListChangedParams) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = cs.Listen(ctx, &SubscriptionsListenParams{Notifications: SubscriptionFilter{ToolsListChanged: true}})
	}()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool list changed as the stream was acknowledged, and the stream was not told")
	}
}
