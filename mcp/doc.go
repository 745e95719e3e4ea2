// Package mcp implements the Model Context Protocol: clients, servers,
// sessions, every transport and every protocol type, for every protocol
// revision from 2024-11-05 to 2026-07-28.
//
// # From hello to HTTP
//
// A server is a set of features. Here it has one tool, whose input schema
// is inferred from a Go type; arguments are checked against it before the
// handler runs:
//
//	type greetArgs struct {
//		Name string `json:"name" jsonschema:"who to greet"`
//	}
//
//	func greet(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
//		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
//	}
//
//	server := mcp.NewServer("greeter", "v1.0.0", nil)
//	server.AddTools(mcp.NewTool("greet", "say hi", greet))
//
// Serve it on stdin and stdout, until the client closes them:
//
//	err := server.Run(ctx, mcp.NewStdIOTransport())
//
// or over streamable HTTP, to clients of every protocol version at once:
//
//	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
//	mux := http.NewServeMux()
//	mux.Handle("/mcp", handler)
//	srv := &http.Server{Addr: "localhost:8080", Handler: mux,
//		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
//	err := srv.ListenAndServe()
//
// Leave the http.Server's WriteTimeout zero (the handler bounds each of its
// writes) and call the handler's [StreamableHTTPHandler.Shutdown] before
// the server's, so that calls in progress finish and open streams end.
//
// A client connects to it and calls the tool:
//
//	client := mcp.NewClient("client", "v1.0.0", nil)
//	transport := mcp.NewStreamableClientTransport("http://localhost:8080/mcp", nil)
//	session, err := client.Connect(ctx, transport) // or mcp.NewCommandTransport(exec.Command("greeter"), nil)
//	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
//	fmt.Println(res.Content[0].Text) // Hi you
//
// The package example runs this program. The guides in the repository's
// docs directory take each part further: docs/servers.md (tools, prompts,
// resources, completion, logging, pagination), docs/clients.md,
// docs/transports.md, docs/protocol-eras.md,
// docs/errors-and-cancellation.md, docs/middleware.md, docs/tasks.md,
// docs/extensions.md, docs/testing.md, docs/security.md,
// docs/observability.md and docs/authorization.md;
// docs/migrating-from-mcp-go.md and docs/migrating-from-go-sdk.md
// translate programs written with other Go SDKs. The examples directory
// has a small runnable program per feature.
//
// # Servers
//
// A [Server] holds tools, prompts, resources and resource templates, and
// serves any number of clients. Each client connection is a
// [ServerSession].
// [NewTool] infers a tool's input schema from its argument type and
// validates every call's arguments before the handler runs;
// [NewStructuredTool] adds an output schema and structured content. A
// tool's handler finds the rest of its request (its _meta, its progress
// token, a way to report progress) with [ToolRequestFromContext].
// [NewPrompt], [ServerResource], [ServerResourceTemplate] and
// [FileResourceHandler] cover prompts and resources. Adding or removing a
// feature tells connected clients that the list changed.
//
// # Clients
//
// A [Client] connects to servers; each connection is a [ClientSession],
// with a method per protocol request ([ClientSession.ListTools],
// [ClientSession.CallTool], ...) and iterators over paginated lists
// ([ClientSession.Tools], ...). [DecodeStructured] reads a tool's
// structured result into a Go value. Over HTTP, a request the server
// refuses at the HTTP level (401, 403, a proxy's 502) fails with an
// [HTTPStatusError].
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
// Receiving middleware ([Server.AddMiddleware],
// [Client.AddMiddleware]) wraps the handling of every request and
// notification a side receives; sending middleware
// ([Server.AddSendingMiddleware], [Client.AddSendingMiddleware]) wraps
// every one it sends, with the typed params before encoding and the
// decoded result after. [RequestInfoFromContext] gives middleware the
// message's id and transport; [Server.AddSessionObserver] and
// [Client.AddSessionObserver] report sessions starting and ending. Methods
// beyond the protocol's are added with [Server.AddMethods] and
// [Client.AddMethods] and sent with [ClientSession.Call] and the Notify
// methods; an extension's capability settings go in the Extensions of
// [ServerCapabilities] and [ClientCapabilities], and
// [MissingExtensionError] refuses a client that did not declare one. A
// panic in a handler or middleware becomes an internal error for that
// request and is logged to the Logger of [ServerOptions] or
// [ClientOptions] (unless DisablePanicRecovery is set).
//
// # Errors
//
// A tool handler's error is a tool result with isError, which the model
// reads. Other handlers' and middleware's errors are JSON-RPC errors: a
// [JSONRPCError] chooses its code, any other error is an internal error.
// [CodeOf] gives the code of an error as the peer sees it, on either side.
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
// limits body sizes, bounds each write, bounds and expires sessions and
// listen streams (see [StreamableHTTPHandler.Stats]); requestState is
// signed and expires.
package mcp
