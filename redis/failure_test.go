package redis_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/redis"
)

// post sends one JSON-RPC message to endpoint and returns the status and
// body, failing the test if the server takes longer than 10 s.
func post(t *testing.T, endpoint, sid, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestRefusingWrites: a Redis that refuses every command makes publishes
// and saves fail with errors and a new session fail its initialize with a
// JSON-RPC error; nothing hangs, and all works again once Redis does.
func TestRefusingWrites(t *testing.T) {
	m := miniredis.RunT(t)
	b := newBackend(t, m.Addr())
	c := storetest.StartCluster(t, func(testing.TB, int) storetest.Backends {
		b := newBackend(t, m.Addr())
		return storetest.Backends{EventBus: b.EventBus(), SessionRouter: b.SessionRouter(), SessionStore: b.SessionStore(), EventStore: b.EventStore(), TaskStore: b.TaskStore()}
	}, nil)
	ctx := context.Background()

	m.SetError("READONLY You can't write against a read only replica.")
	if err := b.EventBus().Publish(ctx, &mcp.BusEvent{Kind: mcp.BusToolsListChanged}); err == nil {
		t.Fatal("Publish to a refusing Redis succeeded")
	}
	if err := b.SessionStore().Save(ctx, "S", &mcp.SessionState{ProtocolVersion: "2025-11-25"}, time.Minute); err == nil {
		t.Fatal("Save to a refusing Redis succeeded")
	}
	if _, err := b.TaskStore().Get(ctx, "t"); err == nil || errors.Is(err, mcp.ErrTaskNotFound) {
		t.Fatalf("Get from a refusing Redis = %v, want an error other than not found", err)
	}
	status, body := post(t, c.URL, "", initialize)
	if status != http.StatusOK || !strings.Contains(body, `"error"`) || !strings.Contains(body, "could not be stored") {
		t.Fatalf("initialize with a refusing Redis: %d %s", status, body)
	}
	for _, s := range c.Servers { // a list change is still made, and published in vain
		s.AddTools(&mcp.ServerTool{Tool: &mcp.Tool{Name: "late", InputSchema: []byte(`{"type":"object"}`)},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return nil, nil
			}})
	}
	status, _ = post(t, c.URL, "SOMESESSION", `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if status != http.StatusNotFound {
		t.Fatalf("an unknown session with a refusing Redis: status %d, want 404", status)
	}

	m.SetError("")
	status, body = post(t, c.URL, "", initialize)
	if status != http.StatusOK || strings.Contains(body, `"error"`) {
		t.Fatalf("initialize after Redis recovered: %d %s", status, body)
	}
}

// TestRestart: while Redis is down, Publish fails at once; when it is
// back, subscribers made before receive again without being made anew.
// Redis restarts behind a proxy that is down meanwhile: clients see it
// back only once it serves every command (see outage).
func TestRestart(t *testing.T) {
	m := miniredis.RunT(t)
	link := newOutage(t, m.Addr())
	sub, pub := newBackend(t, link.addr), newBackend(t, link.addr)
	ctx := context.Background()
	got := make(chan string, 16)
	unsub, err := sub.EventBus().Subscribe(ctx, func(e *mcp.BusEvent) { got <- e.URI })
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()

	link.down()
	m.Close()
	start := time.Now()
	if err := pub.EventBus().Publish(ctx, &mcp.BusEvent{Kind: mcp.BusResourceUpdated, URI: "down"}); err == nil {
		t.Fatal("Publish with Redis down succeeded")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Publish with Redis down took %v", d)
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	link.up()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_ = pub.EventBus().Publish(ctx, &mcp.BusEvent{Kind: mcp.BusResourceUpdated, URI: "up"})
		select {
		case uri := <-got:
			if uri != "up" {
				t.Fatalf("got %q", uri)
			}
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the subscriber did not get events after Redis restarted")
		}
	}
}

// TestWaitEventsRedisGone: a wait for events fails with an error, at once,
// when Redis refuses commands or is gone, so that the caller falls back to
// reading the store at an interval; it never outlasts its context.
func TestWaitEventsRedisGone(t *testing.T) {
	m := miniredis.RunT(t)
	s := newBackend(t, m.Addr()).EventStore()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m.SetError("ERR refused")
	start := time.Now()
	if err := s.WaitEvents(ctx, "S", "1", 0); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitEvents on a refusing Redis: %v, want its error", err)
	}
	m.SetError("")
	m.Close()
	if err := s.WaitEvents(ctx, "S", "1", 0); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitEvents with Redis gone: %v, want an error", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("failing waits took %v", d)
	}
}

// TestWaitEventsBounded: waits beyond MaxWaiters fail at once instead of
// holding more of the client's connections.
func TestWaitEventsBounded(t *testing.T) {
	m := miniredis.RunT(t)
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr()})
	defer client.Close()
	b := redis.New(client, &redis.Options{MaxWaiters: 1})
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	first := make(chan error, 1)
	go func() { first <- b.EventStore().WaitEvents(ctx, "S", "1", 0) }()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := b.EventStore().WaitEvents(ctx, "S", "2", 0); err == nil || errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Fatalf("a second wait with MaxWaiters 1: %v after %v, want an error at once", err, time.Since(start))
	}
	if err := b.EventStore().Append(ctx, "S", "1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first wait: %v", err)
	}
}

// TestAppendRedisRefusing: appends to a Redis that refuses writes are
// queued and dropped with a logged error; reads do not wait for them long,
// and events appended once Redis accepts writes again are stored.
func TestAppendRedisRefusing(t *testing.T) {
	m := miniredis.RunT(t)
	s := newBackend(t, m.Addr()).EventStore()
	ctx := context.Background()
	m.SetError("READONLY You can't write against a read only replica.")
	for range 1000 {
		if err := s.Append(ctx, "S", "1", []byte(`{}`)); err != nil && !strings.Contains(err.Error(), "too many events") {
			t.Fatal(err)
		}
	}
	start := time.Now()
	for _, err := range s.After(ctx, "S", "1", 0) {
		if err == nil {
			t.Fatal("After on a refusing Redis yielded an event")
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("After waited %v for events that could not be stored", d)
	}
	m.SetError("")
	if err := s.Append(ctx, "S", "2", []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for data, err := range s.After(ctx, "S", "2", 0) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	if len(got) != 1 || got[0] != `{"n":1}` {
		t.Fatalf("after Redis recovered: %q", got)
	}
}

// TestSubscribeRefused: a subscription Redis does not confirm (here it
// refuses every command, as an ACL without the channel would refuse
// SUBSCRIBE) is said in the log, and Subscribe returns within its bound.
func TestSubscribeRefused(t *testing.T) {
	m := miniredis.RunT(t)
	var logged strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logged.Write(p)
	}), nil))
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr(), MaxRetries: -1})
	defer client.Close()
	b := redis.New(client, &redis.Options{Logger: logger})
	defer b.Close()
	m.SetError("NOPERM this user has no permissions to access one of the channels used as arguments")
	start := time.Now()
	unsub, err := b.EventBus().Subscribe(context.Background(), func(*mcp.BusEvent) {})
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Subscribe took %v", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logged.String(), "has not confirmed a subscription") {
		t.Fatalf("nothing logged about the refused subscription: %q", logged.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
