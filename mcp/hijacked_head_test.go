package mcp

import (
	"bufio"
	"bytes"
	"net/http"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// TestResponseHeadWire is the exact head of a hijacked stream's response.
func TestResponseHeadWire(t *testing.T) {
	h := http.Header{
		"Content-Type":   {"text/event-stream"},
		"Content-Length": {"12"},
		"Date":           {"Thu, 26 Nov 2026 11:00:00 GMT"},
		"Mcp-Session-Id": {"abc"},
	}
	got := string(appendResponseHead(nil, h))
	want := "HTTP/1.1 200 OK\r\n" +
		"Content-Type: text/event-stream\r\n" +
		"Date: Thu, 26 Nov 2026 11:00:00 GMT\r\n" +
		"Mcp-Session-Id: abc\r\n" +
		"Connection: close\r\n" +
		"Transfer-Encoding: chunked\r\n\r\n"
	if got != want {
		t.Errorf("head\n%q\nwant\n%q", got, want)
	}
	if got := string(appendChunk(nil, []byte("data: x\n\n"))); got != "9\r\ndata: x\n\n\r\n" {
		t.Errorf("chunk %q", got)
	}
}

// FuzzResponseHead checks that no header a handler or middleware sets
// can break the head of a hijacked stream's response: it parses as a 200
// chunked response whose only headers are those set (line breaks in
// values made spaces, invalid names dropped) plus Date.
func FuzzResponseHead(f *testing.F) {
	f.Add("Access-Control-Allow-Origin", "https://a.example")
	f.Add("X-Evil", "a\r\nTransfer-Encoding: identity\r\n\r\nHTTP/1.1 200 OK")
	f.Add("Bad Name:", "v")
	f.Add("Content-Length", "5")
	f.Fuzz(func(t *testing.T, key, value string) {
		h := http.Header{}
		h[key] = []string{value}
		head := appendResponseHead(nil, h)
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(append(head, lastChunk...))), nil)
		if err != nil {
			t.Fatalf("head %q does not parse: %v", head, err)
		}
		if resp.StatusCode != 200 || len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
			t.Fatalf("head %q: status %d, transfer encoding %v", head, resp.StatusCode, resp.TransferEncoding)
		}
		for k := range resp.Header {
			if k != "Date" && k != http.CanonicalHeaderKey(key) {
				t.Fatalf("head %q: header %q was not set", head, k)
			}
		}
	})
}

// TestBroadcastEventSplices checks that a resource update is cut once at
// the subscription id, and that each stream's event is what encoding it
// for that stream would give.
func TestBroadcastEventSplices(t *testing.T) {
	p := &ResourceUpdatedParams{URI: "file:///a"}
	b := &broadcastEvent{method: NotificationResourceUpdated, fresh: func() any { c := *p; return &c }}
	for _, id := range []any{int64(7), `s"1`} {
		l := &listener{id: id}
		got, ok := b.appendEvent(nil, l.subscriptionIDJSON())
		if !ok {
			t.Fatal("the event was not cut at the subscription id")
		}
		c := *p
		c.Meta.SubscriptionID = id
		n, err := jsonrpc2.NewNotification(NotificationResourceUpdated, &c)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := jsonrpc2.AppendMessage(nil, n)
		if err != nil {
			t.Fatal(err)
		}
		if want := appendSSEEvent(nil, "message", "", msg); !bytes.Equal(got, want) {
			t.Errorf("id %v:\n got %q\nwant %q", id, got, want)
		}
	}
}
