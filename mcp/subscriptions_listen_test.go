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
	// A burst of changes gives at most two notifications: the first
	// change at once, the others together once listChangedDelay has passed.
	server.AddTools(&ServerTool{Tool: &Tool{Name: "t1", InputSchema: map[string]any{"type": "object"}}, Handler: echoTool().Handler})
	server.RemoveTools("t1")
	server.RemoveTools("echo")
	if err := server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: "file:///a.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := server.ResourceUpdated(context.Background(), &ResourceUpdatedParams{URI: "file:///other.txt"}); err != nil {
		t.Fatal(err)
	}
	count := func(what string) int {
		n := 0
		for _, g := range got {
			if g == what {
				n++
			}
		}
		return n
	}
	waitUntil(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return count("tools") >= 1 && count("updated file:///a.txt") >= 1
	})
	time.Sleep(5 * listChangedDelay) // a second tools change, if any, has arrived
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Listen returned %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if tools, updated := count("tools"), count("updated file:///a.txt"); tools > 2 || updated != 1 || tools+updated != len(got) {
		t.Fatalf("notifications %q, want one or two tools changes and one update of file:///a.txt", got)
	}
}

// The first change of a list that has been quiet for listChangedDelay is
// announced at once; the changes that follow wait until the delay has
// passed since it. The test makes the delay an hour and the list's last
// notification older than that: the first change must arrive, the
// second must not.
func TestListChangedFirstChangeAtOnce(t *testing.T) {
	for _, version := range []string{Version20251125, Version20260728} {
		t.Run(version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.changeDelay = 20 * time.Millisecond
			server.AddTools(echoTool())
			var mu sync.Mutex
			n := 0
			cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version, ToolListChangedHandler: func(context.Context, *ClientSession, *ToolListChangedParams) {
				mu.Lock()
				n++
				mu.Unlock()
			}})
			if version == Version20260728 {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() {
					_, _ = cs.Listen(ctx, &SubscriptionsListenParams{Notifications: SubscriptionFilter{ToolsListChanged: true}}) // ends with ctx; the test watches the server side
				}()
				waitUntil(t, func() bool {
					return len(server.listeners.matching(func(*SubscriptionFilter) bool { return true })) == 1
				})
			}
			time.Sleep(100 * time.Millisecond) // the setup's change is flushed
			server.mu.Lock()
			server.changeDelay = time.Hour
			server.lastFlush[NotificationToolListChanged] = time.Now().Add(-2 * time.Hour)
			server.mu.Unlock()
			server.AddTools(&ServerTool{Tool: &Tool{Name: "t1", InputSchema: map[string]any{"type": "object"}}, Handler: echoTool().Handler})
			waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return n == 1 })
			server.RemoveTools("t1")
			time.Sleep(100 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			if n != 1 {
				t.Fatalf("%d notifications; want the first change only (the second waits for the delay)", n)
			}
		})
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
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return n == 1 })
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
		_, _ = cs.Listen(ctx, &SubscriptionsListenParams{Notifications: SubscriptionFilter{ToolsListChanged: true}}) // ends with ctx; the test watches the server side
	}()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool list changed as the stream was acknowledged, and the stream was not told")
	}
}
