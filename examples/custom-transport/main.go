// Command custom-transport serves MCP over plain TCP, one JSON-RPC message
// per line, and shows how to write a Transport of your own: here one that
// wraps another and counts the messages each way.
//
//	go run ./examples/custom-transport
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync/atomic"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// docs:region serve
// serveTCP accepts connections on l and serves each as one MCP session of
// server, until l is closed.
func serveTCP(ctx context.Context, l net.Listener, server *mcp.Server) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		// Any io.ReadWriteCloser carries newline-delimited JSON-RPC.
		if _, err := server.Connect(ctx, mcp.NewIOTransport(conn)); err != nil {
			conn.Close()
		}
	}
}

// docs:endregion

// docs:region transport
// countingTransport is a Transport that wraps another and counts the
// messages its connections read and write.
type countingTransport struct {
	inner         mcp.Transport
	read, written atomic.Int64
}

func (t *countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Connection: conn, t: t}, nil
}

// countingConn is a Connection: Read, Write and Close. Read returns io.EOF
// when the peer is done; Write may be called concurrently.
type countingConn struct {
	mcp.Connection
	t *countingTransport
}

func (c *countingConn) Read(ctx context.Context) (mcp.JSONRPCMessage, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.t.read.Add(1)
	}
	return msg, err
}

func (c *countingConn) Write(ctx context.Context, msg mcp.JSONRPCMessage) error {
	err := c.Connection.Write(ctx, msg)
	if err == nil {
		c.t.written.Add(1)
	}
	return err
}

// docs:endregion

// run serves a greeter on a local TCP port, calls it through a counting
// TCP transport and prints the answer and the counts to w.
func run(ctx context.Context, w io.Writer) error {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in struct {
		Name string `json:"name"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
	}))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer l.Close()
	go serveTCP(ctx, l, server)

	// docs:region dial
	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		return err
	}
	transport := &countingTransport{inner: mcp.NewIOTransport(conn)}
	session, err := mcp.NewClient("client", "v1.0.0", nil).Connect(ctx, transport)
	// docs:endregion
	if err != nil {
		return err
	}
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "TCP"}, nil)
	if err != nil {
		return err
	}
	session.Close()
	fmt.Fprintf(w, "%s (%s; %d messages written, %d read)\n", res.Content[0].Text, session.ProtocolVersion(), transport.written.Load(), transport.read.Load())
	return nil
}
