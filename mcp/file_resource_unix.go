//go:build unix

package mcp

import (
	"os"
	"syscall"
)

// fileOpenFlags open a resource file without blocking: opening a FIFO
// placed where a file was expected returns at once, and the handler then
// refuses it as not a regular file.
const fileOpenFlags = os.O_RDONLY | syscall.O_NONBLOCK
