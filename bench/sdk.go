package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// EchoTool is the name of the tool every benchmark server offers. It takes
// {"text": string} and answers with one text content block holding the same
// text.
const EchoTool = "echo"

// EchoText is the argument the benchmarks send to EchoTool.
const EchoText = "hello, benchmark"

// Protocol versions the benchmarks pin.
const (
	// LegacyVersion is the newest protocol version of the legacy era
	// (initialize handshake, sessions).
	LegacyVersion = "2025-11-25"
	// ModernVersion is the stateless protocol version (server/discover,
	// per-request _meta).
	ModernVersion = "2026-07-28"
)

// ErrPending reports that an SDK does not offer a feature yet, so its
// benchmark cannot run. Benchmarks skip with the reason and the report marks
// the figure "pending"; no figure is ever made up.
var ErrPending = errors.New("pending")

// ErrMismatch reports that a peer answered a call with something other than
// the expected result. A benchmark that sees it fails.
var ErrMismatch = errors.New("unexpected result")

// An Era selects the protocol generation a session speaks.
type Era int

const (
	// Legacy is the 2025-11-25 era: initialize handshake and a session.
	Legacy Era = iota
	// Modern is the 2026-07-28 era: server/discover and stateless requests.
	Modern
)

// String returns "legacy" or "modern", the names used in benchmark names.
func (e Era) String() string {
	if e == Modern {
		return "modern"
	}
	return "legacy"
}

// Version returns the protocol version a client pins for the era.
func (e Era) Version() string {
	if e == Modern {
		return ModernVersion
	}
	return LegacyVersion
}

// Eras lists both eras, legacy first.
var Eras = []Era{Legacy, Modern}

// A Session is one connected client session of some SDK.
type Session interface {
	// Echo makes one tools/call of EchoTool with text and checks that the
	// result is a single text block equal to text; otherwise it returns an
	// error wrapping ErrMismatch.
	Echo(ctx context.Context, text string) error
	// ProtocolVersion is the protocol version the session negotiated.
	ProtocolVersion() string
	// Close ends the session and releases its resources.
	Close() error
}

// A Server is one SDK server with EchoTool registered.
type Server interface {
	// ConnectInMemory connects a new client session of the same SDK over the
	// SDK's in-memory transport.
	ConnectInMemory(ctx context.Context, era Era) (Session, error)
	// ConnectPipe connects a new client session of the same SDK over a pair
	// of os.Pipe, the SDK's newline-delimited JSON (stdio) transport.
	ConnectPipe(ctx context.Context, era Era) (Session, error)
	// ConnectRawInMemory connects a server session over the SDK's in-memory
	// transport and completes a legacy initialize handshake from a minimal
	// raw peer, so that the server's share of an idle session can be
	// measured apart from the client's. Closing the result ends the session.
	ConnectRawInMemory(ctx context.Context) (io.Closer, error)
	// Handler returns the SDK's streamable HTTP handler serving this server
	// in the given era, configured as the SDK documents. The error wraps
	// ErrPending if the SDK has no such handler yet.
	Handler(era Era) (http.Handler, error)
	// Close shuts the server down.
	Close() error
}

// An SDK makes servers and clients of one MCP implementation.
type SDK interface {
	// Name is the SDK's short name in benchmark names: "ours", "gosdk" or
	// "mcpgo".
	Name() string
	// NewServer returns a server with EchoTool registered.
	NewServer() (Server, error)
	// ConnectHTTP connects a new client session of the SDK to the streamable
	// HTTP endpoint at url, sending its requests through hc. The error
	// wraps ErrPending if the SDK has no such client yet.
	ConnectHTTP(ctx context.Context, url string, era Era, hc *http.Client) (Session, error)
}

// SDKs lists the adapters in the order benchmarks run them.
func SDKs() []SDK { return []SDK{Ours{}, GoSDK{}, MCPGo{}} }

// Names lists the short names of SDKs, in order.
func Names() []string {
	var names []string
	for _, s := range SDKs() {
		names = append(names, s.Name())
	}
	return names
}

// checkEcho checks one echo result: exactly one text block equal to want.
func checkEcho(texts []string, isError bool, want string) error {
	if isError {
		return fmt.Errorf("%w: tool reported an error: %q", ErrMismatch, texts)
	}
	if len(texts) != 1 || texts[0] != want {
		return fmt.Errorf("%w: got %q, want [%q]", ErrMismatch, texts, want)
	}
	return nil
}

// echoArgs is the typed input of the echo tool, shared by the SDKs whose
// tool API infers the schema from a Go type.
type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}
