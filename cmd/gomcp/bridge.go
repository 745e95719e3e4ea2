package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// stdioConn is the program's own stdin and stdout as one stream.
type stdioConn struct {
	io.Reader
	io.Writer
}

// Close closes stdin if it can be closed, which ends a pending read.
func (s stdioConn) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// cmdBridge exposes a remote streamable HTTP (or HTTP+SSE) server on
// stdio: every message read on stdin goes to the server, every message
// from the server is written to stdout.
func cmdBridge(ctx context.Context, c *cmdCtx) error {
	if c.target.url == "" || len(c.positional) > 0 {
		return usageError("bridge: gomcp bridge [--header 'Name: Value'] URL")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	header := headerOf(c.target)
	// The bridge's stdin is the client's channel: a login cannot prompt
	// there, but the loopback redirect needs no input.
	hc, obs, a, err := httpClient(c.env, c.o, c.target, c.env.stderrTTY && !c.o.noInteractive)
	if err != nil {
		return err
	}
	defer a.Close()
	var remoteT mcp.Transport = mcp.NewStreamableClientTransport(c.target.url, &mcp.StreamableClientTransportOptions{HTTPClient: hc, Header: header})
	if c.target.sse || strings.HasSuffix(strings.TrimRight(c.target.url, "/"), "/sse") {
		t, err := mcp.NewSSEClientTransport(c.target.url, &mcp.SSEClientTransportOptions{HTTPClient: hc, Header: header})
		if err != nil {
			return usageError("bridge: %v", err)
		}
		remoteT = t
	}
	remote, err := remoteT.Connect(ctx)
	if err != nil {
		return classify(err, "connecting to "+c.target.String(), obs)
	}
	defer remote.Close()
	local, err := mcp.NewIOTransport(stdioConn{c.env.stdin, c.env.stdout}).Connect(ctx)
	if err != nil {
		return err
	}
	defer local.Close()

	pending := &pendingCalls{zero: make(chan struct{}, 1)}
	upc := make(chan error, 1)
	downc := make(chan error, 1)
	stream := &legacyStream{hc: hc, url: c.target.url, header: header, obs: obs, local: local}
	defer stream.wg.Wait()
	noop := func(mcp.JSONRPCMessage) {}
	opened := func(m mcp.JSONRPCMessage) { stream.fromClient(ctx, m) }
	answered := func(m mcp.JSONRPCMessage) { stream.fromServer(m); pending.answered(m) }
	go func() { upc <- forward(ctx, local, remote, pending.sent, opened) }()
	go func() { downc <- forward(ctx, remote, local, noop, answered) }()
	upDone, downDone := false, false
	select {
	case err = <-upc:
		upDone = true
		// The client is done sending: deliver the answers still due.
		if errors.Is(err, io.EOF) {
			downDone = pending.wait(ctx, drainTimeout, downc)
		}
	case err = <-downc:
		downDone = true
	}
	cancel()
	remote.Close()
	local.Close()
	// No goroutine outlives the bridge: the server side ends with its
	// connection; the client side ends with stdin, which a terminal may
	// not close, so it gets a moment only.
	if !downDone {
		<-downc
	}
	if !upDone {
		select {
		case <-upc:
		case <-time.After(time.Second):
		}
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return classify(err, "bridging "+c.target.String(), obs)
}

// drainTimeout bounds how long the bridge waits, after its input ends,
// for the answers to requests it forwarded.
const drainTimeout = 5 * time.Second

// forward copies messages from one connection to the other until the
// first fails, telling before and after about each; a malformed message
// is dropped.
func forward(ctx context.Context, from, to mcp.Connection, before, after func(mcp.JSONRPCMessage)) error {
	for {
		msg, err := from.Read(ctx)
		var decodeErr *mcp.JSONRPCDecodeError
		if errors.As(err, &decodeErr) {
			continue
		}
		if err != nil {
			return err
		}
		before(msg)
		if err := to.Write(ctx, msg); err != nil {
			return err
		}
		after(msg)
	}
}

// pendingCalls counts the client's requests not answered yet.
type pendingCalls struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // signalled when n drops to zero
}

func (p *pendingCalls) sent(m mcp.JSONRPCMessage) {
	if req, ok := m.(*mcp.JSONRPCRequest); ok && req.ID.IsValid() {
		p.mu.Lock()
		p.n++
		p.mu.Unlock()
	}
}

func (p *pendingCalls) answered(m mcp.JSONRPCMessage) {
	if _, ok := m.(*mcp.JSONRPCResponse); !ok {
		return
	}
	p.mu.Lock()
	if p.n > 0 {
		p.n--
	}
	if p.n == 0 {
		select {
		case p.zero <- struct{}{}:
		default:
		}
	}
	p.mu.Unlock()
}

// wait waits until every request is answered, the server side ends (it
// then reports true), or the timeout.
func (p *pendingCalls) wait(ctx context.Context, timeout time.Duration, down <-chan error) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		p.mu.Lock()
		n := p.n
		p.mu.Unlock()
		if n == 0 {
			return false
		}
		select {
		case <-p.zero:
		case <-down:
			return true
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}
