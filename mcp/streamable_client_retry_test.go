package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// idleClosingServer serves the test tools over streamable HTTP on a
// listener whose connections, once idle for a second after a response,
// are closed as the next request arrives, without reading it: what a
// client sees when it reuses a connection the server has just closed for
// being idle and the client has not noticed yet.
func idleClosingServer(t *testing.T, calls *atomic.Int64) (*httptest.Server, *atomic.Int64) {
	server := NewServer("s", "v1", nil)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "count", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			calls.Add(1)
			return &CallToolResult{Content: []*Content{NewTextContent("ok")}}, nil
		},
	})
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	closedIdle := new(atomic.Int64)
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = idleClosingListener{ts.Listener, closedIdle}
	ts.Start()
	t.Cleanup(func() { h.Close(); ts.Close() })
	return ts, closedIdle
}

type idleClosingListener struct {
	net.Listener
	closed *atomic.Int64
}

func (l idleClosingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &idleClosingConn{Conn: c, closed: l.closed}, nil
}

type idleClosingConn struct {
	net.Conn
	closed    *atomic.Int64
	lastWrite atomic.Int64 // unix nanoseconds
}

func (c *idleClosingConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.lastWrite.Store(time.Now().UnixNano())
	return n, err
}

func (c *idleClosingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if last := c.lastWrite.Load(); n > 0 && last != 0 && time.Since(time.Unix(0, last)) >= time.Second {
		c.closed.Add(1)
		c.Conn.Close() // the request was never read: the client must resend it
		return 0, io.EOF
	}
	return n, err
}

// A request sent after the server closed its idle connection is retried
// once on a new connection, and the tool runs once.
func TestStreamableClientRetriesAfterIdleClose(t *testing.T) {
	for _, version := range []string{Version20260728, Version20251125} {
		t.Run(version, func(t *testing.T) {
			var calls atomic.Int64
			ts, closedIdle := idleClosingServer(t, &calls)
			// A client whose pool keeps connections longer than the server
			// does, as http.DefaultTransport's 90 s do.
			httpClient := &http.Client{Transport: &http.Transport{IdleConnTimeout: time.Minute}}
			cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version}).Connect(context.Background(),
				NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{HTTPClient: httpClient, DisableStandaloneSSE: true}))
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for i := range 2 {
				if i > 0 {
					time.Sleep(1200 * time.Millisecond) // the server now closes the connection on use
				}
				res, err := cs.CallTool(context.Background(), "count", nil, nil)
				if err != nil || res.IsError {
					t.Fatalf("call %d after %v idle: %v %v", i, time.Second, res, err)
				}
			}
			if closedIdle.Load() == 0 {
				t.Fatal("the server never closed a reused idle connection: the test proves nothing")
			}
			if n := calls.Load(); n != 2 {
				t.Errorf("the tool ran %d times for 2 calls", n)
			}
		})
	}
}

// The default HTTP client closes idle connections before Node.js servers
// (5 s) do.
func TestDefaultHTTPClientIdleTimeout(t *testing.T) {
	tr, ok := DefaultHTTPClient().Transport.(*http.Transport)
	if !ok || tr.IdleConnTimeout <= 0 || tr.IdleConnTimeout >= 5*time.Second {
		t.Fatalf("default transport %T idle timeout %v, want below 5s", DefaultHTTPClient().Transport, tr.IdleConnTimeout)
	}
	if NewStreamableClientTransport("http://localhost/mcp", nil).opts.HTTPClient != DefaultHTTPClient() {
		t.Error("the streamable client transport does not use DefaultHTTPClient by default")
	}
}
