package mcp

import (
	"context"
	"sync"
	"testing"
)

// TestSendingMiddlewareKnowsRequestIDBeforeSending checks that a client's
// sending middleware can read the id of the request it sends before calling
// the next handler (telemetry needs it when the request's span starts), that
// the id is the one the server receives, and that middleware sending the
// request twice sends it with two different ids.
func TestSendingMiddlewareKnowsRequestIDBeforeSending(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(echoTool())
		var mu sync.Mutex
		var received []any
		server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
			return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
				if method == MethodCallTool {
					info, _ := RequestInfoFromContext(ctx)
					mu.Lock()
					received = append(received, info.ID)
					mu.Unlock()
				}
				return next(ctx, ss, method, params)
			}
		})
		ct, st := NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
		var before, after []any
		client.AddSendingMiddleware(func(next MethodHandler[ClientSession]) MethodHandler[ClientSession] {
			return func(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
				if method != MethodCallTool {
					return next(ctx, cs, method, params)
				}
				info, _ := RequestInfoFromContext(ctx)
				before = append(before, info.ID)
				if _, err := next(ctx, cs, method, params); err != nil { // sent once here ...
					return nil, err
				}
				res, err := next(ctx, cs, method, params) // ... and again
				info, _ = RequestInfoFromContext(ctx)
				after = append(after, info.ID)
				return res, err
			}
		})
		cs, err := client.Connect(context.Background(), ct)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close(); ss.Wait() })
		if _, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, nil); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(before) != 1 || before[0] == nil {
			t.Fatalf("ids seen before sending: %v, want one", before)
		}
		if len(received) != 2 || received[0] != before[0] {
			t.Fatalf("server received ids %v, want %v first", received, before[0])
		}
		if received[1] == received[0] {
			t.Errorf("the request sent twice had the same id %v both times", received[0])
		}
		if len(after) != 1 || after[0] != received[1] {
			t.Errorf("id after the second send %v, want %v", after, received[1])
		}
	})
}
