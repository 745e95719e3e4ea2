//go:build !unix

package mcp

// nonBlockingWrites reports whether tryWrite can write to a socket without
// blocking: not on this system, where every event of a hijacked stream is
// written by its writer goroutine.
const nonBlockingWrites = false

// tryWrite writes nothing: the writer goroutine writes b.
func (hc *hijackedConn) tryWrite(b []byte) (int, error) { return 0, nil }
