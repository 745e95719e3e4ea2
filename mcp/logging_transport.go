package mcp

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// A LoggingTransport is a Transport that delegates to another and writes
// every message it reads or writes to an io.Writer, one line each, prefixed
// with "read: " or "write: ". It is meant for debugging: the log holds
// message contents verbatim. A failed write or read is logged as an
// error line, except the read error of a connection closed normally.
type LoggingTransport struct {
	delegate Transport
	w        io.Writer
}

// NewLoggingTransport returns a LoggingTransport that logs the messages of
// delegate's connections to w.
func NewLoggingTransport(delegate Transport, w io.Writer) *LoggingTransport {
	return &LoggingTransport{delegate: delegate, w: w}
}

// Connect connects the delegate and wraps its connection.
func (t *LoggingTransport) Connect(ctx context.Context) (Connection, error) {
	conn, err := t.delegate.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &loggingConn{Connection: conn, w: t.w}, nil
}

type loggingConn struct {
	Connection
	mu sync.Mutex
	w  io.Writer
}

func (c *loggingConn) log(prefix string, msg JSONRPCMessage, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	line := []byte(prefix)
	if err != nil {
		line = append(line, "error: "...)
		line = append(line, err.Error()...)
	} else if enc, err := jsonrpc2.AppendMessage(line, msg); err != nil {
		line = append(line, "unencodable message: "...)
		line = append(line, err.Error()...)
	} else {
		line = enc
	}
	// A log that cannot be written has nowhere to report it; the
	// connection itself goes on.
	_, _ = c.w.Write(append(line, '\n'))
}

// openStandalone passes the client session's request for the server's own
// stream on to the logged connection.
func (c *loggingConn) openStandalone() <-chan struct{} {
	if o, ok := c.Connection.(serverStreamOpener); ok {
		return o.openStandalone()
	}
	return closedChan
}

// Read logs the message read, or the error, unless the error is the
// connection's normal end: closed by either side, its input at EOF, or
// the read abandoned because ctx ended.
func (c *loggingConn) Read(ctx context.Context) (JSONRPCMessage, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil || !normalEnd(ctx, err) {
		c.log("read: ", msg, err)
	}
	return msg, err
}

// normalEnd reports whether err, from reading a connection, is how a
// connection ends when it is closed rather than broken.
func normalEnd(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, ErrConnectionClosed) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, net.ErrClosed)
}

// Write logs the message before sending it, so that the log keeps causal
// order: a request is always logged before its response. A failure is
// logged on a line of its own.
func (c *loggingConn) Write(ctx context.Context, msg JSONRPCMessage) error {
	c.log("write: ", msg, nil)
	err := c.Connection.Write(ctx, msg)
	if err != nil {
		c.log("write: ", nil, err)
	}
	return err
}
