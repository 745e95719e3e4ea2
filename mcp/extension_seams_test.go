package mcp_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// AddCapability declares a top-level member beside the protocol's, in
// initialize and server/discover results, and the client reads it in
// ServerCapabilities().Other; the protocol's own members are refused.
func TestAddCapability(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			server := mcp.NewServer("s", "v1", nil)
			server.AddCapability("events", map[string]any{"listChanged": true})
			cs := pair(t, server, mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v}))
			got, ok := cs.ServerCapabilities().Other["events"].(map[string]any)
			if !ok || got["listChanged"] != true {
				t.Fatalf("capabilities.events = %#v", cs.ServerCapabilities().Other["events"])
			}
		})
	}
	for _, name := range []string{"", "tools", "extensions", "experimental"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddCapability(%q) did not panic", name)
				}
			}()
			mcp.NewServer("s", "v1", nil).AddCapability(name, nil)
		}()
	}
}

// A filter member declared with AddListChangedFilter is honoured (echoed
// in the acknowledgement, unknown members are not) and NotifyListChanged
// reaches the listen streams that asked, with their subscription id.
func TestAddListChangedFilter(t *testing.T) {
	server := mcp.NewServer("s", "v1", nil)
	server.AddListChangedFilter("widgetsListChanged", "notifications/widgets/list_changed")
	acked := make(chan *mcp.SubscriptionsAcknowledgedParams, 1)
	changed := make(chan any, 1)
	client := mcp.NewClient("c", "v1", &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20260728,
		SubscriptionsAcknowledgedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.SubscriptionsAcknowledgedParams) {
			acked <- p
		},
	})
	client.AddMethods(mcp.NewClientNotification("notifications/widgets/list_changed", func(_ context.Context, _ *mcp.ClientSession, p *probeParams) {
		changed <- p.Meta.SubscriptionID
	}, nil))
	cs := pair(t, server, client)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.Listen(ctx, &mcp.SubscriptionsListenParams{Notifications: mcp.SubscriptionFilter{
			Other: map[string]any{"widgetsListChanged": true, "gadgetsListChanged": true},
		}})
		done <- err
	}()
	defer func() { cancel(); <-done }()
	ack := recvWithin(t, acked)
	if ack.Notifications.Other["widgetsListChanged"] != true || len(ack.Notifications.Other) != 1 {
		t.Fatalf("acknowledged %v, want only widgetsListChanged", ack.Notifications.Other)
	}
	server.NotifyListChanged("notifications/widgets/list_changed")
	if id := recvWithin(t, changed); id == nil {
		t.Fatal("list change without a subscription id")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NotifyListChanged of an undeclared method did not panic")
			}
		}()
		server.NotifyListChanged("notifications/gadgets/list_changed")
	}()
}

// WithRequestIDFunc tells the id a request is sent with, before the
// server sees it: the id a handler reads from its RequestInfo.
func TestWithRequestIDFunc(t *testing.T) {
	for _, v := range eras {
		for _, middleware := range []bool{false, true} {
			server := mcp.NewServer("s", "v1", nil)
			seen := make(chan any, 1)
			server.AddMethods(mcp.NewServerMethod("com.example/id", func(ctx context.Context, _ *mcp.ServerSession, _ *probeParams) (*probeResult, error) {
				info, _ := mcp.RequestInfoFromContext(ctx)
				seen <- info.ID
				return &probeResult{}, nil
			}, nil))
			client := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v})
			if middleware {
				client.AddSendingMiddleware(func(next mcp.MethodHandler[mcp.ClientSession]) mcp.MethodHandler[mcp.ClientSession] {
					return next
				})
			}
			cs := pair(t, server, client)
			var noted any
			ctx := mcp.WithRequestIDFunc(context.Background(), func(id any) { noted = id })
			if err := cs.Call(ctx, "com.example/id", &probeParams{}, &probeResult{}); err != nil {
				t.Fatal(err)
			}
			if got := <-seen; noted == nil || got != noted {
				t.Errorf("%s, middleware %v: noted id %v, the server saw %v", v, middleware, noted, got)
			}
		}
	}
}

// A LongLived method's requests are not counted against MaxInFlight: a
// session with a bound of 1 holds two of them open and still answers a
// call.
func TestLongLivedNotCounted(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			server := mcp.NewServer("s", "v1", &mcp.ServerOptions{MaxInFlight: 1})
			started := make(chan struct{}, 2)
			server.AddMethods(
				mcp.NewServerMethod("com.example/hold", func(ctx context.Context, _ *mcp.ServerSession, _ *probeParams) (*probeResult, error) {
					started <- struct{}{}
					<-ctx.Done()
					return nil, ctx.Err()
				}, &mcp.MethodOptions{LongLived: true}),
				probeMethod,
			)
			cs := pair(t, server, mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v}))
			ctx, cancel := context.WithCancel(context.Background())
			errs := make(chan error, 2)
			for range 2 {
				go func() { errs <- cs.Call(ctx, "com.example/hold", &probeParams{}, &probeResult{}) }()
				<-started
			}
			if _, err := probe(t, cs); err != nil {
				t.Fatalf("a call beside two long-lived requests with MaxInFlight 1: %v", err)
			}
			cancel()
			for range 2 {
				if err := <-errs; !errors.Is(err, context.Canceled) {
					t.Errorf("held request: %v", err)
				}
			}
		})
	}
}

// recvWithin receives from ch, failing the test after 10 seconds: a bug
// fails the test rather than hangs it.
func recvWithin[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
		panic("unreachable")
	}
}
