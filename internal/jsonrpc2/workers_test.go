package jsonrpc2

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

// After a burst of concurrent requests, at most maxIdleHandlers handler
// goroutines wait for more, and every one of them ends with the
// connection (TestNoGoroutineLeft checks the process as a whole;
// TestPushStreamConnHasNoGoroutine that HTTP sessions keep none).
func TestIdleHandlersAreBoundedAndEnd(t *testing.T) {
	s, c := connPair(t, &ConnOptions{Handler: testHandler(nil, nil)}, nil)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if _, err := c.Call(context.Background(), "echo", json.RawMessage(`{}`)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	waitFor(t, func() bool { return s.idle.Load() >= 1 })
	if n := s.idle.Load(); n > maxIdleHandlers {
		t.Errorf("%d handler goroutines wait, at most %d may", n, maxIdleHandlers)
	}
	// A waiting goroutine serves the next request.
	if _, err := c.Call(context.Background(), "echo", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	s.Wait()
	waitFor(t, func() bool { return s.idle.Load() == 0 })
}
