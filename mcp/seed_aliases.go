package mcp

import "context"

// Other spellings of SDK methods, kept alongside the main ones.

// LoggingMessage sends a log message to the client, as [ServerSession.Log]
// does; it is another name for that method.
//
// Deprecated: use [ServerSession.Log]. Protocol 2026-07-28 also deprecates
// logging to the client (SEP-2577); it still works with every protocol
// version.
func (ss *ServerSession) LoggingMessage(ctx context.Context, params *LoggingMessageParams) error {
	return ss.Log(ctx, params)
}

// FileResourceHandler returns a handler that reads file:// resources under
// dir, as the package-level [FileResourceHandler] does. The handler refuses
// paths that escape dir and files outside the requesting client's roots.
func (s *Server) FileResourceHandler(dir string) ResourceHandler {
	return FileResourceHandler(dir)
}
