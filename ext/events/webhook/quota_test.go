package webhook

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// TestServiceQuotas: past a principal's limit, overall or per type, a new
// subscription is ResourceExhausted with data.limit and data.max, while a
// refresh, another principal, and a subscribe after an unsubscribe pass.
func TestServiceQuotas(t *testing.T) {
	tests := []struct {
		name    string
		overall int
		perType map[string]int
		max     int
	}{
		{"overall", 2, nil, 2},
		{"per type", 0, map[string]int{"test.tick": 1}, 1},
		{"per type below overall", 3, map[string]int{"test.tick": 2}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWiredTuned(t, func(o *ServiceOptions, _ *wired) {
				o.MaxSubscriptions, o.MaxSubscriptionsPerType = tt.overall, tt.perType
			}, nil)
			if got := w.svc.MaxSubscriptionsFor("test.tick"); got != tt.max {
				t.Errorf("MaxSubscriptionsFor = %d, want %d", got, tt.max)
			}
			ctx := context.Background()
			params := func(n int) *events.SubscribeParams {
				p := w.params(GenerateSecret())
				p.Delivery.URL = fmt.Sprintf("%s/hook/%d", w.srv.URL, n)
				return p
			}
			for n := range tt.max {
				if _, err := Subscribe(ctx, w.cs, w.r, params(n)); err != nil {
					t.Fatalf("subscription %d of %d: %v", n+1, tt.max, err)
				}
			}
			challenges := w.challenges.Load()
			_, err := Subscribe(ctx, w.cs, w.r, params(tt.max))
			var rpc *mcp.JSONRPCError
			want := fmt.Sprintf(`{"limit":"subscriptions","max":%d}`, tt.max)
			if events.KindOf(err) != events.KindResourceExhausted || !errors.As(err, &rpc) || string(rpc.Data) != want {
				t.Fatalf("subscription %d: %v, want ResourceExhausted with data %s", tt.max+1, err, want)
			}
			if got := w.challenges.Load(); got != challenges {
				t.Errorf("a refused subscribe challenged the endpoint (%d challenges, want %d)", got, challenges)
			}
			if _, err := Subscribe(ctx, w.cs, w.r, params(0)); err != nil {
				t.Fatalf("a refresh at the limit: %v", err)
			}
			bob := "bob"
			w.principal.Store(&bob)
			if _, err := Subscribe(ctx, w.cs, w.r, params(tt.max)); err != nil {
				t.Fatalf("another principal: %v", err)
			}
			alice := "alice"
			w.principal.Store(&alice)
			un := &events.UnsubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: params(0).Delivery.URL}}
			if err := w.cs.Call(ctx, events.MethodUnsubscribe, un, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := Subscribe(ctx, w.cs, w.r, params(tt.max)); err != nil {
				t.Fatalf("after an unsubscribe: %v", err)
			}
		})
	}
}

// TestServiceQuotaDefaults: without options a principal may hold
// DefaultMaxSubscriptions; a negative MaxSubscriptions is no limit.
func TestServiceQuotaDefaults(t *testing.T) {
	if got := NewService(nil).MaxSubscriptionsFor("x"); got != DefaultMaxSubscriptions {
		t.Errorf("default limit %d, want %d", got, DefaultMaxSubscriptions)
	}
	if got := NewService(&ServiceOptions{MaxSubscriptions: -1}).MaxSubscriptionsFor("x"); got != 0 {
		t.Errorf("limit with MaxSubscriptions -1: %d, want 0 (none)", got)
	}
}
