//go:build unix

package mcp

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFileResourceHandlerFIFO checks that a FIFO where a file is expected
// is refused at once rather than blocking the handler.
func TestFileResourceHandlerFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := FileResourceHandler(dir)(context.Background(), &ServerSession{}, &ReadResourceParams{URI: "file:///pipe"})
		done <- err
	}()
	select {
	case err := <-done:
		checkFileOutcome(t, "file:///pipe", nil, err, fileOutcome{refused: true})
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
