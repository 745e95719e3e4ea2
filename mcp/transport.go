package mcp

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// A Transport connects a logical JSON-RPC stream between an MCP client and
// server. Connect is called once per session.
type Transport interface {
	Connect(ctx context.Context) (Connection, error)
}

// A Connection is a bidirectional stream of JSON-RPC messages, as returned
// by a Transport. Read is called from one goroutine at a time and returns an
// error (io.EOF when the peer is done) once the connection ends; Write may be
// called concurrently; Close unblocks a pending Read.
//
// Custom transports implement Connection. Read may return a
// *JSONRPCDecodeError for a malformed message: the session answers it and
// keeps reading. One whose Response field is set (the bytes were a
// response) is not answered: it fails the call with its ID, or every
// pending call when the ID is null, with ErrUnreadableResponse.
type Connection interface {
	Read(ctx context.Context) (JSONRPCMessage, error)
	Write(ctx context.Context, msg JSONRPCMessage) error
	Close() error
}

// JSON-RPC wire types, for custom transports.
type (
	// JSONRPCMessage is a *JSONRPCRequest, a *JSONRPCResponse or a batch.
	JSONRPCMessage = jsonrpc2.Message
	// JSONRPCRequest is a request, or a notification when its ID is null.
	JSONRPCRequest = jsonrpc2.Request
	// JSONRPCResponse carries a result or an error for a request.
	JSONRPCResponse = jsonrpc2.Response
	// JSONRPCID is a request id: a string or an integer.
	JSONRPCID = jsonrpc2.ID
	// JSONRPCDecodeError reports bytes that are not a valid message.
	JSONRPCDecodeError = jsonrpc2.DecodeError
)

// JSONRPCError is the error object of a JSON-RPC error response. Errors
// returned by a peer's handlers reach the caller wrapped as *JSONRPCError, so
// errors.As exposes the code; a handler may return one to choose the code.
type JSONRPCError = jsonrpc2.Error

// DecodeMessage decodes one JSON-RPC message strictly (case-sensitive
// member names, no duplicate keys, bounded depth), for custom transports.
func DecodeMessage(data []byte) (JSONRPCMessage, error) { return jsonrpc2.Decode(data) }

// EncodeMessage encodes a JSON-RPC message, for custom transports.
func EncodeMessage(msg JSONRPCMessage) ([]byte, error) { return jsonrpc2.Encode(msg) }

// ErrConnectionClosed is returned by calls on a session whose connection
// has ended, and by calls that were waiting when it ended.
var ErrConnectionClosed = jsonrpc2.ErrClosed

// ErrUnreadableResponse ends a call whose response arrived but could not be
// read: over the size limit, nested too deep, malformed, or not a valid
// JSON-RPC response. The error says which, and the call fails as soon as
// the response arrives (at the size limit for one too large) instead of
// waiting for its context. When the response's id cannot be read, every
// call waiting on that connection fails with it; the connection goes on.
var ErrUnreadableResponse = jsonrpc2.ErrUnreadableResponse

// connectOnce guards transports that can be connected only once.
type connectOnce struct {
	mu   sync.Mutex
	used bool
}

var errAlreadyConnected = errors.New("mcp: transport already connected")

func (c *connectOnce) claim() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.used {
		return errAlreadyConnected
	}
	c.used = true
	return nil
}

// An IOTransport is a Transport over any reader and writer, using
// newline-delimited JSON, the framing of MCP's stdio transport.
type IOTransport struct {
	r    io.Reader
	w    io.Writer
	c    io.Closer
	opts *jsonrpc2.StreamOptions
	once connectOnce
}

// NewIOTransport returns a Transport that reads messages from rwc and writes
// them to rwc, one per line; closing the connection closes rwc.
func NewIOTransport(rwc io.ReadWriteCloser) *IOTransport {
	return &IOTransport{r: rwc, w: rwc, c: rwc}
}

// Connect returns the connection. It may be called only once.
func (t *IOTransport) Connect(context.Context) (Connection, error) {
	if err := t.once.claim(); err != nil {
		return nil, err
	}
	return jsonrpc2.NewLineStream(t.r, t.w, t.c, t.opts), nil
}

// A StdIOTransport is the server side of MCP's stdio transport: it reads
// newline-delimited JSON-RPC from os.Stdin and writes it to os.Stdout.
// Nothing else is ever written to stdout.
type StdIOTransport struct {
	IOTransport
}

// NewStdIOTransport returns a transport over os.Stdin and os.Stdout.
func NewStdIOTransport() *StdIOTransport {
	return &StdIOTransport{IOTransport{r: os.Stdin, w: os.Stdout, c: stdioCloser{}}}
}

// stdioCloser closes stdin, to unblock the reader, but leaves stdout open
// so responses still in flight can be written by whoever holds it.
type stdioCloser struct{}

func (stdioCloser) Close() error { return os.Stdin.Close() }

// An InMemoryTransport is one end of an in-process connection, for tests
// and for embedding a server in its client's process. Messages pass as
// values: the envelope is never encoded, but params and results are, so the
// peers share no mutable state.
type InMemoryTransport struct {
	conn Connection
	once connectOnce
}

// NewInMemoryTransports returns two InMemoryTransports connected to each
// other: one for the client, one for the server.
func NewInMemoryTransports() (*InMemoryTransport, *InMemoryTransport) {
	a, b := jsonrpc2.NewPipe()
	return &InMemoryTransport{conn: a}, &InMemoryTransport{conn: b}
}

// Connect returns this end's connection. It may be called only once.
func (t *InMemoryTransport) Connect(context.Context) (Connection, error) {
	if err := t.once.claim(); err != nil {
		return nil, err
	}
	return t.conn, nil
}
