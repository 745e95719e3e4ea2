package mcp_test

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// widgetsChanged is the notification of the list TestAddedListCrossesTheBus
// declares.
const widgetsChanged = "notifications/widgets/list_changed"

// A change of a list declared with AddListChangedFilter, announced on one
// instance, reaches the clients of another instance sharing its EventBus,
// as a tools list change does: a 2025-11-25 session and a 2026-07-28
// listen stream that asked for it.
func TestAddedListCrossesTheBus(t *testing.T) {
	bus := mcp.NewMemoryEventBus()
	instance := func() *mcp.Server {
		s := mcp.NewServer("s", "v1", &mcp.ServerOptions{EventBus: bus})
		s.AddListChangedFilter("widgetsListChanged", widgetsChanged)
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	a, b := instance(), instance()
	heard := make(chan string, 4)
	acked := make(chan struct{}, 1)
	client := func(version string) *mcp.ClientSession {
		c := mcp.NewClient("c", "v1", &mcp.ClientOptions{
			ProtocolVersion: version,
			SubscriptionsAcknowledgedHandler: func(context.Context, *mcp.ClientSession, *mcp.SubscriptionsAcknowledgedParams) {
				acked <- struct{}{}
			},
		})
		c.AddMethods(mcp.NewClientNotification(widgetsChanged, func(context.Context, *mcp.ClientSession, *probeParams) {
			heard <- version
		}, nil))
		return pair(t, b, c)
	}
	client(mcp.Version20251125)
	modern := client(mcp.Version20260728)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := modern.Listen(ctx, &mcp.SubscriptionsListenParams{Notifications: mcp.SubscriptionFilter{
			Other: map[string]any{"widgetsListChanged": true},
		}})
		done <- err
	}()
	defer func() { cancel(); <-done }()
	recvWithin(t, acked)

	a.NotifyListChanged(widgetsChanged)
	got := map[string]bool{recvWithin(t, heard): true, recvWithin(t, heard): true}
	if !got[mcp.Version20251125] || !got[mcp.Version20260728] {
		t.Errorf("heard by %v, want both clients of the other instance", got)
	}
}
