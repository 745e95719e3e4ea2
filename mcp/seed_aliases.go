package mcp

import "context"

// Spellings of the seed design (seeds/000) kept alongside the SDK's own.

// LoggingMessage sends a log message to the client, as [ServerSession.Log]
// does; it is the name the seed design gives the method.
func (ss *ServerSession) LoggingMessage(ctx context.Context, params *LoggingMessageParams) error {
	return ss.Log(ctx, params)
}

// FileResourceHandler returns a handler that reads file:// resources under
// dir, as the package-level [FileResourceHandler] does; it is the form the
// seed design gives. The handler refuses paths that escape dir and files
// outside the requesting client's roots.
func (s *Server) FileResourceHandler(dir string) ResourceHandler {
	return FileResourceHandler(dir)
}
