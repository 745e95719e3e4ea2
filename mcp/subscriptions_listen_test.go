package mcp

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestListenDeliversListChangesAndResourceUpdates(t *testing.T) {
	server := newListenTestServer()
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
	waitUntil(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return countOf(got, "tools") >= 1 && countOf(got, "updated file:///a.txt") >= 1
	})
	time.Sleep(5 * listChangedDelay) // a second tools change, if any, has arrived
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Listen returned %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if tools, updated := countOf(got, "tools"), countOf(got, "updated file:///a.txt"); tools > 2 || updated != 1 || tools+updated != len(got) {
		t.Fatalf("notifications %q, want one or two tools changes and one update of file:///a.txt", got)
	}
}

// newListenTestServer is a server with the echo tool and one resource,
// file:///a.txt, for the tests of subscriptions/listen.
func newListenTestServer() *Server {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	server.AddResources(&ServerResource{Resource: &Resource{URI: "file:///a.txt", Name: "a"}, Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
		return &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents("file:///a.txt", "text/plain", "A")}}, nil
	}})
	return server
}

// countOf is how many times what occurs in got.
func countOf(got []string, what string) int {
	n := 0
	for _, g := range got {
		if g == what {
			n++
		}
	}
	return n
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

// goroutinesWaitingOn returns the stacks of the goroutines whose stack
// contains every one of frames.
func goroutinesWaitingOn(frames ...string) []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		all := true
		for _, f := range frames {
			all = all && strings.Contains(g, f)
		}
		if all {
			out = append(out, g)
		}
	}
	return out
}

// A hijacked 2026-07-28 listen stream without middleware waits for its
// client on a goroutine of its own, not deep in the request's dispatch
// (whose stack the runtime would keep), and its request is answered as
// the dispatch answers it: the same bytes as with middleware, which keeps
// the request's goroutine. Whether the server closes or the handler does,
// the server ends the subscription, and says so with the request's
// successful response.
func TestListenWaitsApartFromItsRequest(t *testing.T) {
	for _, ending := range []string{"server closes", "handler closes", "handler shuts down"} {
		final := map[bool]string{}
		for _, withMiddleware := range []bool{false, true} {
			final[withMiddleware] = listenUntilEnd(t, ending, withMiddleware)
		}
		if final[false] != final[true] {
			t.Errorf("%s: the listen request's answer differs with middleware:\n%q\n%q", ending, final[false], final[true])
		}
		for _, want := range []string{`"result":{`, `"resultType":"complete"`, `"io.modelcontextprotocol/subscriptionId":7`, `"io.modelcontextprotocol/serverInfo"`} {
			if !strings.Contains(final[false], want) {
				t.Errorf("%s: the listen request's answer %q lacks %s", ending, final[false], want)
			}
		}
	}
}

// listenUntilEnd opens a listen stream, checks where it waits, ends it as
// ending says and returns the request's answer.
func listenUntilEnd(t *testing.T, ending string, withMiddleware bool) string {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	var mu sync.Mutex
	var seen []any
	if withMiddleware {
		server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
			return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
				res, err := next(ctx, ss, method, params)
				if method == MethodSubscriptionsListen {
					mu.Lock()
					seen = append(seen, res)
					mu.Unlock()
				}
				return res, err
			}
		})
	}
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	waitUntil(t, func() bool { return len(goroutinesWaitingOn("waitClient")) == 1 })
	inDispatch := len(goroutinesWaitingOn("waitClient", "(*Server).dispatch"))
	apart := len(goroutinesWaitingOn("waitClient", "finishListen"))
	switch {
	case !withMiddleware && (inDispatch != 0 || apart != 1):
		t.Fatalf("without middleware: %d waits in the dispatch, %d apart; want 0 and 1", inDispatch, apart)
	case withMiddleware && (inDispatch != 1 || apart != 0):
		t.Fatalf("with middleware: %d waits in the dispatch, %d apart; want 1 and 0", inDispatch, apart)
	}
	var err error
	switch ending {
	case "server closes":
		err = server.Close()
	case "handler closes":
		err = h.Close()
	default:
		err = h.Shutdown(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	res := ws.chunkWith(`"id":7`)
	ws.ended()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && h.Stats().Requests == 0 })
	mu.Lock()
	defer mu.Unlock()
	if withMiddleware && len(seen) != 1 {
		t.Errorf("the middleware saw %d listen answers, want 1", len(seen))
	}
	return res
}

// A detached listen stream whose client leaves ends its request: the
// stream no longer counts and the listener no longer gets broadcasts.
func TestListenApartClientLeaves(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	ws := openWire(t, ts, listenRequest("HTTP/1.1"))
	ws.chunkWith(NotificationSubscriptionsAcknowledged)
	waitUntil(t, func() bool { return len(goroutinesWaitingOn("waitClient", "finishListen")) == 1 })
	ws.conn.Close()
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 0 && h.Stats().Requests == 0 })
	waitUntil(t, func() bool {
		server.listeners.mu.Lock()
		defer server.listeners.mu.Unlock()
		return len(server.listeners.set) == 0
	})
	if g := goroutinesWaitingOn("finishListen"); len(g) != 0 {
		t.Fatalf("the waiting goroutine outlived its client:\n%s", g[0])
	}
}
