//go:build !unix

package main

// ignoreTerm does nothing where no SIGTERM reaches a child: on Windows
// os.Process.Signal can only kill, so a server is stopped by the kill that
// follows the grace, as one that ignores SIGTERM is on unix.
func ignoreTerm() {}
