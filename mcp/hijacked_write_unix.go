//go:build unix

package mcp

import "syscall"

// nonBlockingWrites reports whether tryWrite can write to a socket without
// blocking.
const nonBlockingWrites = true

// tryWrite writes what the socket takes of b at once, without blocking,
// and returns how much that was. A socket whose buffer is full takes
// nothing and is no error.
func (hc *hijackedConn) tryWrite(b []byte) (int, error) {
	if hc.raw == nil {
		return 0, nil
	}
	written := 0
	var werr error
	err := hc.raw.Write(func(fd uintptr) bool {
		for written < len(b) {
			n, err := syscall.Write(int(fd), b[written:])
			if err == syscall.EINTR {
				continue
			}
			if err == syscall.EAGAIN {
				break
			}
			if err != nil {
				werr = err
				break
			}
			if n <= 0 {
				break
			}
			written += n
		}
		return true // never wait for the socket: the writer goroutine does
	})
	if werr == nil {
		werr = err
	}
	return written, werr
}
