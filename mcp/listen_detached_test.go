package mcp

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
)

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
