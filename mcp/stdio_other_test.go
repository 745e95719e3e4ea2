//go:build !unix

package mcp

// signalIgnoreTerm does nothing where no SIGTERM reaches a child: on
// Windows os.Process.Signal can only kill, so the transport's SIGTERM step
// fails, waits its grace and kills the child, as with a child that ignores
// SIGTERM on unix.
func signalIgnoreTerm() {}
