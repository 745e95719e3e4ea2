package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// SSE streams on the client side of the streamable HTTP transport: the
// stream answering a POST, the legacy GET stream, and their resumption.

// streamCursor is where a client is in an SSE stream.
type streamCursor struct {
	lastID string        // id of the last event received
	retry  time.Duration // the server's reconnection delay, or < 0
}

// consume reads events from body and passes their messages on. It returns
// true once the response to r arrives, or once an event that may be it
// could not be read (never for the GET stream, r nil).
func (c *streamableClientConn) consume(body io.Reader, r *jsonrpc2.Request, modern bool, cur *streamCursor) bool {
	sr := newSSEReader(body, c.t.opts.MaxEventSize)
	for {
		ev, err := sr.Next()
		if err != nil {
			if r != nil && errors.Is(err, ErrSSEEventTooLarge) {
				// Resuming would replay the same event: the call fails
				// now, saying why.
				c.deliverUnreadable(&jsonrpc2.DecodeError{ID: r.ID, Response: true, Err: fmt.Errorf("%w: %w", jsonrpc2.ErrMessageTooLarge, err)})
				return true
			}
			return false
		}
		if ev.HasID {
			cur.lastID = ev.ID
		}
		if ev.Retry >= 0 {
			cur.retry = ev.Retry
		}
		if len(ev.Data) == 0 || ev.Name != "message" {
			continue
		}
		msg, err := jsonrpc2.Decode(ev.Data)
		if err != nil {
			if c.unreadable(err, r) {
				return true
			}
			continue // a malformed request or notification is skipped, the stream goes on
		}
		if c.handle(msg, r, modern) {
			return true
		}
	}
}

// unreadable passes on an event that could not be decoded, err, when it
// is a response (jsonrpc2.DecodeError.Response), so that the connection
// fails the call it answers. On the stream answering r, a response with
// r's id or with an id that could not be read is r's: unreadable reports
// true, r has its answer. A response naming another call is passed on
// with its id. On the GET stream (r nil), a response whose id could not be
// read answers nothing that can be named, and is skipped.
func (c *streamableClientConn) unreadable(err error, r *jsonrpc2.Request) bool {
	var derr *jsonrpc2.DecodeError
	if !errors.As(err, &derr) || !derr.Response {
		return false
	}
	switch {
	case r != nil && (derr.ID == r.ID || !derr.ID.IsValid()):
		derr.ID = r.ID
		c.deliverUnreadable(derr)
		return true
	case derr.ID.IsValid():
		c.deliverUnreadable(derr)
	}
	return false
}

// readResponseStream reads the SSE stream answering request r. When it
// breaks before the response, a legacy stream that gave event ids is
// resumed with GET and Last-Event-ID; otherwise the request fails.
func (c *streamableClientConn) readResponseStream(ctx context.Context, resp *http.Response, r *jsonrpc2.Request, modern bool) {
	cur := streamCursor{retry: -1}
	done := c.consume(resp.Body, r, modern, &cur)
	_ = resp.Body.Close() // read to its end or given up: nothing left to report
	if done || ctx.Err() != nil {
		return
	}
	if !modern && cur.lastID != "" && c.resume(ctx, r, &cur) {
		return
	}
	if ctx.Err() == nil {
		c.deliver(&jsonrpc2.Response{ID: r.ID, Error: &jsonrpc2.Error{
			Code: CodeInternalError, Message: "the server's SSE stream ended before the response",
		}})
	}
}

// resume reconnects a broken stream until the response to r arrives. It
// reports false when it gives up.
func (c *streamableClientConn) resume(ctx context.Context, r *jsonrpc2.Request, cur *streamCursor) bool {
	for failures := 0; failures <= c.t.opts.MaxRetries; {
		if !sleepCtx(ctx, reconnectDelay(cur.retry, failures)) {
			return false
		}
		resp, err := c.get(ctx, cur.lastID)
		if err != nil {
			failures++
			continue
		}
		if resp.StatusCode != http.StatusOK {
			drainClose(resp.Body)
			if resp.StatusCode == http.StatusNotFound && c.sessionIDSet() {
				c.fail(ErrSessionExpired)
			}
			return false
		}
		failures = 0
		done := c.consume(resp.Body, r, false, cur)
		_ = resp.Body.Close() // read to its end or given up: nothing left to report
		if done {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
	}
	return false
}

// standaloneLoop keeps the legacy session's GET stream open, reconnecting
// when it ends. It stops when the server does not offer one (405), after
// MaxRetries failures in a row, or when ctx ends with the connection. It
// closes ready once the server answered the first GET, or when it stops.
func (c *streamableClientConn) standaloneLoop(ctx context.Context, ready chan struct{}) {
	signal := sync.OnceFunc(func() { close(ready) })
	defer signal()
	cur := streamCursor{retry: -1}
	failures := 0
	for first := true; ctx.Err() == nil; first = false {
		if !first && !sleepCtx(ctx, reconnectDelay(cur.retry, failures)) {
			return
		}
		resp, err := c.get(ctx, cur.lastID)
		signal()
		if err != nil {
			if failures++; failures > c.t.opts.MaxRetries {
				return
			}
			continue
		}
		switch {
		case resp.StatusCode == http.StatusNotFound:
			drainClose(resp.Body)
			c.fail(ErrSessionExpired)
			return
		case resp.StatusCode != http.StatusOK || !isMediaType(resp.Header.Get("Content-Type"), mediaSSE):
			drainClose(resp.Body)
			return // 405: the server has no GET stream
		}
		failures = 0
		c.consume(resp.Body, nil, false, &cur)
		_ = resp.Body.Close() // read to its end or given up: nothing left to report
	}
}

// get opens the session's GET stream, resuming after lastID if set.
func (c *streamableClientConn) get(ctx context.Context, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.t.url, nil)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	c.setCommonHeaders(req.Header, sid, version)
	req.Header["Accept"] = hdrSSE
	if lastID != "" {
		req.Header[headerLastEventID] = []string{lastID}
	}
	return c.t.opts.HTTPClient.Do(req)
}

func (c *streamableClientConn) sessionIDSet() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID != ""
}

// reconnectDelay is the wait before a reconnection: the server's retry
// field when it sent one, else exponential backoff.
func reconnectDelay(retry time.Duration, failures int) time.Duration {
	if retry >= 0 {
		return retry
	}
	d := reconnectBase << min(failures, 8)
	return min(d, reconnectMax)
}

// sleepCtx waits d, reporting false if ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
