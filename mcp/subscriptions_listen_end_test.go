package mcp

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
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

// A listen stream the handler ends before its request claims the
// connection's watch (the end lands between the acknowledgement and the
// wait) is not waited on: its wait returns at once, and the handler's
// end does not have to close the connection under the answer.
func TestListenWaitSeesEarlyEnd(t *testing.T) {
	server, client := net.Pipe()
	defer server.Close()
	defer client.Close()
	hc := &hijackedConn{conn: server, deferWatch: true, claimed: true}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the stream ended; nothing interrupted the connection
	s := NewServer("s", "v1", nil)
	l := &listener{}
	done := make(chan error, 1)
	go func() { done <- l.waitDirect(ctx, s, hc, true) }()
	select {
	case err := <-done:
		// Ended by a plain cancellation (the client left): the error says
		// so; an end by the handler would be nil (listenEnd).
		if !errors.Is(err, context.Canceled) {
			t.Errorf("waitDirect after the stream ended: %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("waitDirect waited for the client although the stream had ended")
	}
}
