//go:build !unix

package mcp

import "os"

// fileOpenFlags open a resource file for reading.
const fileOpenFlags = os.O_RDONLY
