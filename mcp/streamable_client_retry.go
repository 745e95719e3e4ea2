package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Servers close keep-alive connections that stay idle: Node.js after 5
// seconds, many others after 5 to 75. A client that reuses a connection
// the server has just closed sees its request fail with EOF or a reset.
// The default HTTP client of the MCP transports therefore closes idle
// connections first, and a request that failed on a reused connection
// before any byte of a response arrived is sent once more, on another
// connection: the rule net/http applies to idempotent requests, since the
// server closed the connection without answering.

// DefaultIdleConnTimeout is how long the default HTTP client of the
// streamable and SSE client transports keeps an idle connection: below
// the 5 seconds after which Node.js servers close theirs.
const DefaultIdleConnTimeout = 3 * time.Second

// retryIdleAfter is how long a client connection must have been idle for
// a failed request to be traced and retried: a connection in steady use
// is not closed by a server's idle timeout.
const retryIdleAfter = time.Second

var defaultHTTPClient = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.IdleConnTimeout = DefaultIdleConnTimeout
	return &http.Client{Transport: t}
})

// DefaultHTTPClient returns the HTTP client the MCP client transports use
// when none is configured: http.DefaultTransport's settings, with idle
// connections closed after DefaultIdleConnTimeout.
func DefaultHTTPClient() *http.Client { return defaultHTTPClient() }

// connTrace records what happened to one HTTP request's connection.
type connTrace struct {
	reused    bool // the connection came from the idle pool
	responded bool // a byte of the response arrived
}

// traced returns ctx tracing the connection of the request made with it
// into ct.
func (ct *connTrace) traced(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn:              func(info httptrace.GotConnInfo) { ct.reused = info.Reused },
		GotFirstResponseByte: func() { ct.responded = true },
	})
}

// retryable reports whether a request that failed with err on the
// connection ct traced never reached the server: it went out on a reused
// connection that the server closed before answering anything.
func (ct *connTrace) retryable(ctx context.Context, err error) bool {
	return ct.reused && !ct.responded && ctx.Err() == nil && closedByPeer(err)
}

// closedByPeer reports whether err says the server closed the connection.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "server closed idle connection")
}

// do sends an HTTP request. When the connection had been idle, the
// request is traced and, if it provably never reached the server, sent
// once more.
func (c *streamableClientConn) do(req *http.Request) (*http.Response, error) {
	idle := time.Since(c.lastActive()) >= retryIdleAfter
	c.touch()
	if !idle {
		return c.t.opts.HTTPClient.Do(req)
	}
	var ct connTrace
	ctx := req.Context()
	resp, err := c.t.opts.HTTPClient.Do(req.WithContext(ct.traced(ctx)))
	if err == nil || req.GetBody == nil || !ct.retryable(ctx, err) {
		return resp, err
	}
	body, berr := req.GetBody()
	if berr != nil {
		return nil, err
	}
	retry := req.Clone(ctx)
	retry.Body = body
	return c.t.opts.HTTPClient.Do(retry)
}

// lastActive returns when the connection last sent a request.
func (c *streamableClientConn) lastActive() time.Time {
	return time.Unix(0, c.active.Load())
}

// touch records that the connection used the network now.
func (c *streamableClientConn) touch() {
	c.active.Store(time.Now().UnixNano())
}
