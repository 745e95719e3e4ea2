package events

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// serveHTTP serves s over streamable HTTP and returns its URL.
func serveHTTP(t *testing.T, s *mcp.Server, opts *mcp.StreamableHTTPOptions) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return srv.URL
}

// connectHTTP connects a client speaking version to url.
func connectHTTP(t *testing.T, url, version string) *conn {
	t.Helper()
	c := mcp.NewClient("events-client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})
	ec := EnableClient(c, nil)
	cs, err := c.Connect(context.Background(), mcp.NewStreamableClientTransport(url, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &conn{cs: cs, ec: ec}
}

// TestHTTPStream: over streamable HTTP, push streams deliver in both eras
// and are not counted against the session's in-flight bound.
func TestHTTPStream(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, &mcp.ServerOptions{MaxInFlight: 2})
			c := connectHTTP(t, serveHTTP(t, s, nil), version)
			var runs []*streamRun
			for range 3 {
				r := startStream(t, c, "tick.push", nil)
				within(t, r.opened, "a stream's active")
				runs = append(runs, r)
			}
			if _, err := ListTypes(context.Background(), c.cs); err != nil {
				t.Fatalf("a call beside 3 streams with MaxInFlight 2: %v", err)
			}
			emit(t, es, "tick.push", tick{N: 7}, nil)
			for _, r := range runs {
				if o := within(t, r.events, "the event on each stream"); string(o.Data) != `{"n":7}` {
					t.Errorf("event %s", o.Data)
				}
			}
		})
	}
}

// postStream POSTs a 2026-07-28 request of method with params (the
// request metadata added) and returns the response, its body unread.
func postStream(t *testing.T, ctx context.Context, url, method, params string) *http.Response {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + meta + params + `}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
	req.Header.Set("Mcp-Method", method)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// nextData reads the data of the next SSE event of a response.
func nextData(t *testing.T, sc *bufio.Scanner) string {
	t.Helper()
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return data
		}
	}
	t.Fatalf("the SSE stream ended: %v", sc.Err())
	return ""
}

// TestHTTPStreamWire: the response of events/stream is an SSE stream whose
// first message is notifications/events/active, tagged with the request's
// id; heartbeats are messages too, not SSE comments.
func TestHTTPStreamWire(t *testing.T) {
	s, _ := newTestServer(&ServerOptions{Heartbeat: 5 * time.Millisecond}, nil)
	url := serveHTTP(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postStream(t, ctx, url, MethodStream, `,"name":"tick.push","arguments":{}`)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	want := []string{NotificationActive, NotificationHeartbeat, NotificationHeartbeat}
	for i, method := range want {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Meta   map[string]any `json:"_meta"`
				Cursor *string        `json:"cursor"`
			} `json:"params"`
		}
		data := nextData(t, sc)
		if err := strictjson.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("message %d %s: %v", i, data, err)
		}
		if m.Method != method || m.Params.Cursor == nil || m.Params.Meta["io.modelcontextprotocol/subscriptionId"] != float64(7) {
			t.Errorf("message %d = %s, want %s with a cursor and subscriptionId 7", i, data, method)
		}
	}
}

// TestHTTPStreamBeyondListenLimit: push streams are not subscriptions/listen
// streams: a handler that holds its MaxListenStreams still opens them.
func TestHTTPStreamBeyondListenLimit(t *testing.T) {
	s, _ := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
	s.AddTools(mcp.NewTool("noop", "Does nothing", func(context.Context, *mcp.ServerSession, struct{}) ([]*mcp.Content, error) { return nil, nil }))
	url := serveHTTP(t, s, &mcp.StreamableHTTPOptions{MaxListenStreams: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listen := postStream(t, ctx, url, mcp.MethodSubscriptionsListen, `,"notifications":{"toolsListChanged":true}`)
	if data := nextData(t, bufio.NewScanner(listen.Body)); !strings.Contains(data, "notifications/subscriptions/acknowledged") {
		t.Fatalf("listen stream began with %s", data)
	}
	if second := postStream(t, ctx, url, mcp.MethodSubscriptionsListen, `,"notifications":{}`); second.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a second listen stream: status %d, want 503 (the limit holds)", second.StatusCode)
	}
	c := connectHTTP(t, url, mcp.Version20260728)
	r := startStream(t, c, "tick.push", nil)
	within(t, r.opened, "a push stream beside a full listen limit")
	r.cancel()
	if err := within(t, r.done, "Stream's end"); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}
