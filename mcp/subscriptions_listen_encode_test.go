package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// A list change reaches every listen stream with that stream's own
// subscription id: encoded once per stream without sending middleware,
// typed (and not shared between streams) with it. Run with -race: the
// streams are written concurrently.
func TestListChangeCarriesEachStreamsSubscriptionID(t *testing.T) {
	for _, withMiddleware := range []bool{false, true} {
		t.Run(fmt.Sprintf("middleware=%v", withMiddleware), func(t *testing.T) {
			s := NewServer("s", "v1", nil)
			if withMiddleware {
				s.AddSendingMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
					return next
				})
			}
			type got struct {
				listener any
				params   any
			}
			ch := make(chan got, 64)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			const streams = 8
			for i := range streams {
				id := fmt.Sprintf("sub-%d", i)
				l := newListener(SubscriptionFilter{ToolsListChanged: true}, id, 0, func(ctx context.Context, method string, params any) error {
					ch <- got{id, params}
					return nil
				})
				s.listeners.add(l)
				go l.serve(ctx, s, nil)
			}
			for round := range 2 {
				s.listChanged(NotificationToolListChanged)
				seen := map[any]bool{}
				for range streams {
					var g got
					select {
					case g = <-ch:
					case <-time.After(5 * time.Second):
						t.Fatalf("round %d: %d of %d streams notified", round, len(seen), streams)
					}
					var p ToolListChangedParams
					switch v := g.params.(type) {
					case json.RawMessage:
						if withMiddleware {
							t.Errorf("middleware was given encoded params %s", v)
						}
						if err := strictjson.Unmarshal(v, &p); err != nil {
							t.Fatal(err)
						}
					case *ToolListChangedParams:
						if !withMiddleware {
							t.Errorf("params were encoded per send: %T", v)
						}
						p = *v
					default:
						t.Fatalf("params %T", v)
					}
					if p.Meta.SubscriptionID != g.listener {
						t.Errorf("stream %v got subscription id %v", g.listener, p.Meta.SubscriptionID)
					}
					seen[g.listener] = true
				}
			}
		})
	}
}
