package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func TestMiddleware(t *testing.T) {
	ctx := context.Background()
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == "time" || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer(logger, newLimiter(2, time.Hour)).Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	// Ping needs a legacy session: 2026-07-28 servers send no requests of their own.
	cs, err := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for i := range 3 {
		_, err := cs.CallTool(ctx, "echo", map[string]any{"text": "hi"}, nil)
		var rpcErr *mcp.JSONRPCError
		switch {
		case i < 2 && err != nil:
			t.Fatalf("call %d: %v", i, err)
		case i == 2 && (!errors.As(err, &rpcErr) || rpcErr.Code != codeRateLimited || mcp.CodeOf(err) != codeRateLimited):
			t.Fatalf("call %d past the limit: err = %v", i, err)
		}
	}
	if err := ss.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	got := logs.String()
	if strings.Count(got, `msg=request method=tools/call tool=echo id=`) != 2 ||
		!strings.Contains(got, `msg="request failed" method=tools/call tool=echo id=4 code=-32000 err=`) ||
		!strings.Contains(got, `msg=sent method=ping err=<nil>`) {
		t.Errorf("log:\n%s", got)
	}
}

func TestLimiterRefills(t *testing.T) {
	l := newLimiter(1, 10*time.Millisecond)
	if !l.allow() || l.allow() {
		t.Fatal("burst of 1 not enforced")
	}
	time.Sleep(20 * time.Millisecond)
	if !l.allow() {
		t.Error("no token after the refill interval")
	}
}

// A panicking tool does not end the server: the caller gets an error
// result, the stack goes to the server's Logger, and the next call works.
func TestPanicRecovered(t *testing.T) {
	ctx := context.Background()
	var logs strings.Builder
	// docs:region panic
	server := mcp.NewServer("fragile", "v1.0.0", &mcp.ServerOptions{
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), // where the stack goes
	})
	var calls map[string]int // the bug: never made
	server.AddTools(mcp.NewTool("boom", "Panics", func(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
		calls["boom"]++ // assignment to a nil map
		return nil, nil
	}))
	// docs:endregion
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 {
		res, err := cs.CallTool(ctx, "boom", nil, nil)
		if err != nil || !res.IsError {
			t.Fatalf("CallTool = %+v, %v; want an error result", res, err)
		}
	}
	if !strings.Contains(logs.String(), "assignment to entry in nil map") {
		t.Errorf("log lacks the panic:\n%s", logs.String())
	}
}
