package mcp

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Compile-time checks that each implementation of an interface, public or
// from the standard library, keeps implementing it.
var (
	// Transports and their connections.
	_ Transport  = (*IOTransport)(nil)
	_ Transport  = (*StdIOTransport)(nil)
	_ Transport  = (*InMemoryTransport)(nil)
	_ Transport  = (*CommandTransport)(nil)
	_ Transport  = (*LoggingTransport)(nil)
	_ Transport  = (*StreamableClientTransport)(nil)
	_ Transport  = (*StreamableServerTransport)(nil)
	_ Transport  = (*SSEClientTransport)(nil)
	_ Transport  = (*SSEServerTransport)(nil)
	_ Connection = (*loggingConn)(nil)
	_ Connection = (*streamableClientConn)(nil)
	_ Connection = (*sseClientConn)(nil)
	_ Connection = sseServerConn{}
	_ Connection = streamableTransportConn{}

	// HTTP handlers and the logging handler.
	_ http.Handler = (*StreamableHTTPHandler)(nil)
	_ http.Handler = (*SSEHTTPHandler)(nil)
	_ slog.Handler = (*LoggingHandler)(nil)

	// Stores.
	_ EventStore = (*MemoryEventStore)(nil)
	_ TaskStore  = (*MemoryTaskStore)(nil)

	// Options of tools and prompts.
	_ ToolOption     = toolOptionFunc(nil)
	_ SchemaOption   = schemaOptionFunc(nil)
	_ PromptOption   = promptOptionFunc(nil)
	_ ArgumentOption = argumentTitle("")
	_ ArgumentOption = requiredArgument(false)
	_ ArgumentOption = completeWith{}
	_ ArgumentOption = schemaOptionFunc(nil)

	// The session's connection to the client, and the context that
	// learns the ids of sent requests.
	_ sessionPeer          = (*jsonrpc2.Conn)(nil)
	_ sessionPeer          = (*httpSession)(nil)
	_ sessionPeer          = statelessPeer{}
	_ jsonrpc2.CallIDNoter = (*requestContext)(nil)
	_ context.Context      = (*requestContext)(nil)
)
