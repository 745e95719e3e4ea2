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
	if _, err := newServer(logger, newLimiter(2, time.Hour)).Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
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
		case i == 2 && (!errors.As(err, &rpcErr) || rpcErr.Code != -32000):
			t.Fatalf("call %d past the limit: err = %v", i, err)
		}
	}
	got := logs.String()
	if strings.Count(got, `msg=request method=tools/call tool=echo`) != 2 ||
		!strings.Contains(got, `msg="request failed" method=tools/call tool=echo err=`) {
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
