package mcp

// FileResourceHandler returns a handler that reads file:// resources under
// dir, as the package-level [FileResourceHandler] does. The handler refuses
// paths that escape dir and files outside the requesting client's roots.
//
// Deprecated: Use the package-level FileResourceHandler.
func (s *Server) FileResourceHandler(dir string) ResourceHandler {
	return FileResourceHandler(dir)
}
