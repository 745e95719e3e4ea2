package main

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestProgress(t *testing.T) {
	cs := connect(t, newServer(time.Millisecond, nil))
	var (
		mu       sync.Mutex
		messages []string
	)
	// docs:region progress
	res, err := cs.CallTool(context.Background(), "work", map[string]any{"steps": 3}, &mcp.CallToolOptions{
		ProgressHandler: func(ctx context.Context, p *mcp.ProgressNotificationParams) {
			mu.Lock()
			defer mu.Unlock()
			messages = append(messages, p.Message)
		},
	})
	// docs:endregion
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if res.Content[0].Text != "done" || len(messages) != 3 || messages[2] != "step 3 of 3" {
		t.Errorf("result %q, progress %q", res.Content[0].Text, messages)
	}
}

// Cancelling the context of a call sends notifications/cancelled, and the
// tool's context is cancelled on the server.
func TestCancellation(t *testing.T) {
	handlerErr := make(chan error, 1)
	cs := connect(t, newServer(time.Hour, func(err error) { handlerErr <- err }))
	// docs:region cancel
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := cs.CallTool(ctx, "work", map[string]any{"steps": 3}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CallTool = %v, want the context's error", err)
	}
	// docs:endregion
	select {
	case err := <-handlerErr:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("tool returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tool's context was not cancelled")
	}
	// The session is still usable: the cancelled call holds nothing.
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// The tool's input schema comes from its Go type, minimum included: zero
// steps is refused before the handler runs.
func TestStepsAtLeastOne(t *testing.T) {
	ran := false
	cs := connect(t, newServer(time.Millisecond, func(error) { ran = true }))
	res, err := cs.CallTool(context.Background(), "work", map[string]any{"steps": 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || ran {
		t.Errorf("steps 0: IsError %t, handler ran %t; want a tool error before the handler", res.IsError, ran)
	}
}
