package mcp

import "slices"

// Implementation returns the server's identity as NewServer and
// ServerOptions set it: the serverInfo of initialize and server/discover
// results. The copy is the caller's; a document that describes the server
// outside the protocol, such as a Server Card, is built from it so that
// the two cannot disagree.
func (s *Server) Implementation() Implementation {
	impl := s.impl
	impl.Icons = slices.Clone(impl.Icons)
	for i := range impl.Icons {
		impl.Icons[i].Sizes = slices.Clone(impl.Icons[i].Sizes)
	}
	return impl
}

// ProtocolVersions returns the protocol versions the server serves, newest
// first (ServerOptions.ProtocolVersions, or every version
// SupportedVersions returns), in a slice the caller owns.
func (s *Server) ProtocolVersions() []string {
	return slices.Clone(s.versions())
}
