package mcp

import (
	"context"
	"strings"
	"testing"
)

// When the handler ends a subscriptions/listen stream (Close, Shutdown),
// the server tears the subscription down, and the stream's last event is
// the listen request's successful response, whether the stream took its
// connection from net/http or not.
func TestListenEndsGracefullyWhenHandlerEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts *StreamableHTTPOptions
		end  func(*StreamableHTTPHandler) error
	}{
		{"hijacked/Close", nil, (*StreamableHTTPHandler).Close},
		{"hijacked/Shutdown", nil, func(h *StreamableHTTPHandler) error { return h.Shutdown(context.Background()) }},
		{"net/http/Close", &StreamableHTTPOptions{DisableStreamHijack: true}, (*StreamableHTTPHandler).Close},
		{"net/http/Shutdown", &StreamableHTTPOptions{DisableStreamHijack: true}, func(h *StreamableHTTPHandler) error { return h.Shutdown(context.Background()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, h, ts, _ := newHTTPTest(t, tc.opts, nil)
			ws := openWire(t, ts, listenRequest("HTTP/1.1"))
			ws.chunkWith(NotificationSubscriptionsAcknowledged)
			if err := tc.end(h); err != nil {
				t.Fatal(err)
			}
			res := ws.chunkWith(`"id":7`)
			for _, want := range []string{`"result":{`, `"resultType":"complete"`, `"io.modelcontextprotocol/subscriptionId":7`} {
				if !strings.Contains(res, want) {
					t.Errorf("the listen request's answer %q lacks %s", res, want)
				}
			}
		})
	}
}
