// Package mcp implements the Model Context Protocol: clients, servers,
// sessions, every transport and every protocol type, for every protocol
// revision from 2024-11-05 to 2026-07-28.
//
// # Servers
//
// A [Server] holds tools, prompts, resources and resource templates, and
// serves any number of clients. Each client connection is a
// [ServerSession]:
//
//	server := mcp.NewServer("greeter", "v1.0.0", nil)
//	server.AddTools(mcp.NewTool("greet", "say hi", greet))
//	err := server.Run(ctx, mcp.NewStdIOTransport())
//
// [NewTool] infers a tool's input schema from its argument type and
// validates every call's arguments before the handler runs;
// [NewStructuredTool] adds an output schema and structured content.
// [NewPrompt], [ServerResource], [ServerResourceTemplate] and
// [FileResourceHandler] cover prompts and resources. Adding or removing a
// feature tells connected clients that the list changed.
//
// # Clients
//
// A [Client] connects to servers; each connection is a [ClientSession],
// with a method per protocol request ([ClientSession.ListTools],
// [ClientSession.CallTool], ...) and iterators over paginated lists
// ([ClientSession.Tools], ...):
//
//	client := mcp.NewClient("client", "v1.0.0", nil)
//	session, err := client.Connect(ctx, mcp.NewCommandTransport(exec.Command("greeter")))
//	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
//
// # Protocol eras
//
// Revisions up to 2025-11-25 open a session with the initialize handshake;
// 2026-07-28 is stateless: every request carries its protocol version,
// client capabilities and client identity in _meta, and a server asks its
// client for input by answering with an input-required result that the
// client fulfils and retries. One Server serves both eras, deciding per
// connection (stdio) or per request (HTTP); a default Client probes with
// server/discover and falls back to initialize. Handler code is the same
// in both eras: [ServerSession.Elicit], [ServerSession.CreateMessage] and
// [ServerSession.ListRoots] are requests to the client up to 2025-11-25
// and input-required results in 2026-07-28. [ServerSession.ProtocolAtLeast]
// tells handler code which revision a request uses.
//
// # Middleware, observers and extensions
//
// Receiving middleware ([Server.AddReceivingMiddleware],
// [Client.AddReceivingMiddleware]) wraps the handling of every request and
// notification a side receives; sending middleware
// ([Server.AddSendingMiddleware], [Client.AddSendingMiddleware]) wraps
// every one it sends, with the typed params before encoding and the
// decoded result after. [RequestInfoFromContext] gives middleware the
// message's id and transport; [Server.AddSessionObserver] and
// [Client.AddSessionObserver] report sessions starting and ending. Methods
// beyond the protocol's are added with [Server.AddMethods] and
// [Client.AddMethods] and sent with [ClientSession.Call] and the Notify
// methods. A panic in a handler or middleware becomes an internal error
// for that request and is logged to the Logger of [ServerOptions] or
// [ClientOptions].
//
// # Transports
//
// A [Transport] makes a [Connection], a stream of JSON-RPC messages. The
// package provides stdio ([StdIOTransport], [CommandTransport]),
// streamable HTTP ([StreamableHTTPHandler], [StreamableClientTransport]),
// the 2024-11-05 HTTP+SSE transport ([SSEHTTPHandler],
// [SSEClientTransport]), in-memory ([NewInMemoryTransports]), any
// io.ReadWriteCloser ([IOTransport]) and logging ([LoggingTransport]).
//
// # Safety
//
// JSON is decoded strictly (case-sensitive member names, no duplicate
// keys, bounded depth and size); requests in flight per session are
// bounded; the HTTP handler checks Host and Origin against DNS rebinding,
// limits body sizes and expires idle sessions; requestState is signed and
// expires.
package mcp
