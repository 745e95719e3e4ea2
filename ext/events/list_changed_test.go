package events

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestListChanged: a subscriptions/listen stream that asks for
// eventsListChanged has it echoed in its acknowledgement and receives
// notifications/events/list_changed when types change; sessions of
// earlier revisions receive it too. A change made on another instance
// sharing the server's EventBus reaches them as well, as a tools list
// change does.
func TestListChanged(t *testing.T) {
	for _, version := range versions {
		for _, where := range []string{"this instance", "another instance"} {
			t.Run(version+"/"+where, func(t *testing.T) {
				bus := mcp.NewMemoryEventBus()
				s, es := newTestServer(nil, &mcp.ServerOptions{EventBus: bus})
				if where == "another instance" {
					other, otherES := newTestServer(nil, &mcp.ServerOptions{EventBus: bus})
					t.Cleanup(func() { _ = other.Close() })
					es = otherES
				}
				t.Cleanup(func() { _ = s.Close() })
				changed := make(chan struct{}, 8)
				acked := make(chan *mcp.SubscriptionsAcknowledgedParams, 1)
				c := connectWith(t, s, &mcp.ClientOptions{
					ProtocolVersion: version,
					SubscriptionsAcknowledgedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.SubscriptionsAcknowledgedParams) {
						acked <- p
					},
				}, &ClientOptions{ListChanged: func(context.Context, *mcp.ClientSession) { changed <- struct{}{} }})
				if version == mcp.Version20260728 {
					ctx, cancel := context.WithCancel(context.Background())
					done := make(chan error, 1)
					go func() {
						_, err := c.cs.Listen(ctx, &mcp.SubscriptionsListenParams{Notifications: mcp.SubscriptionFilter{
							ToolsListChanged: true,
							Other:            map[string]any{ListenFilter: true, "somethingElse": true},
						}})
						done <- err
					}()
					defer func() { cancel(); <-done }()
					ack := within(t, acked, "the acknowledgement")
					if ack.Notifications.Other[ListenFilter] != true || len(ack.Notifications.Other) != 1 {
						t.Errorf("acknowledged %v, want eventsListChanged echoed and nothing unknown", ack.Notifications.Other)
					}
				}
				es.AddTypes(NewType[struct{}, tick]("tick.new", "A new type", nil))
				within(t, changed, "notifications/events/list_changed")
			})
		}
	}
}
