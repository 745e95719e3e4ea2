package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func connect(t *testing.T, server *mcp.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", opts).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func read(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return res.Contents[0].Text
}

func TestResources(t *testing.T) {
	ctx := context.Background()
	n := newNotes()
	cs := connect(t, n.server, nil)
	if got := read(t, cs, "notes://welcome"); got != "Hello from the notes server." {
		t.Errorf("welcome = %q", got)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://missing"}); !errors.Is(err, mcp.ErrResourceNotFound) {
		t.Errorf("missing note: err = %v, want ErrResourceNotFound", err)
	}
	if _, err := cs.CallTool(ctx, "write_note", map[string]any{"name": "todo", "text": "buy milk"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := read(t, cs, "notes://index"); got != "todo\nwelcome" {
		t.Errorf("index = %q", got)
	}
}

// Both eras hear of updates: a 2025-11-25 client by resources/subscribe, a
// 2026-07-28 client by a subscriptions/listen stream.
func TestSubscriptions(t *testing.T) {
	ctx := context.Background()
	n := newNotes()
	legacyUpdates := make(chan string, 4)
	// docs:region legacy-subscribe
	legacy := connect(t, n.server, &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20251125,
		ResourceUpdatedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ResourceUpdatedParams) {
			legacyUpdates <- p.URI
		},
	})
	if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://todo"}); err != nil {
		t.Fatal(err)
	}
	// docs:endregion

	modernUpdates := make(chan string, 4)
	acked := make(chan struct{})
	modern := connect(t, n.server, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ResourceUpdatedParams) {
			modernUpdates <- p.URI
		},
		SubscriptionsAcknowledgedHandler: func(context.Context, *mcp.ClientSession, *mcp.SubscriptionsAcknowledgedParams) {
			close(acked)
		},
	})
	// docs:region listen
	// Listen blocks until its context ends; run it on its own goroutine.
	listenCtx, stopListening := context.WithCancel(ctx)
	listenDone := make(chan error, 1)
	go func() {
		_, err := modern.Listen(listenCtx, &mcp.SubscriptionsListenParams{
			Notifications: mcp.SubscriptionFilter{ResourceSubscriptions: []string{"notes://index"}},
		})
		listenDone <- err
	}()
	// docs:endregion
	select {
	case <-acked:
	case <-time.After(5 * time.Second):
		t.Fatal("listen stream not acknowledged")
	}

	if _, err := modern.CallTool(ctx, "write_note", map[string]any{"name": "todo", "text": "buy milk"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ch   chan string
		want string
	}{{"legacy", legacyUpdates, "notes://todo"}, {"modern", modernUpdates, "notes://index"}} {
		select {
		case got := <-tc.ch:
			if got != tc.want {
				t.Errorf("%s: updated %s, want %s", tc.name, got, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: no update", tc.name)
		}
	}
	stopListening()
	if err := <-listenDone; !errors.Is(err, context.Canceled) {
		t.Errorf("Listen = %v", err)
	}
}
