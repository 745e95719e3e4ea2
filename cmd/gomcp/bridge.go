package main

import (
	"context"
	"errors"
	"io"
	"strings"

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

	errc := make(chan error, 2)
	go func() { errc <- forward(ctx, local, remote) }()
	go func() { errc <- forward(ctx, remote, local) }()
	err = <-errc
	cancel()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return classify(err, "bridging "+c.target.String(), obs)
}

// forward copies messages from one connection to the other until the
// first fails; a malformed message from the client is dropped.
func forward(ctx context.Context, from, to mcp.Connection) error {
	for {
		msg, err := from.Read(ctx)
		var decodeErr *mcp.JSONRPCDecodeError
		if errors.As(err, &decodeErr) {
			continue
		}
		if err != nil {
			return err
		}
		if err := to.Write(ctx, msg); err != nil {
			return err
		}
	}
}
