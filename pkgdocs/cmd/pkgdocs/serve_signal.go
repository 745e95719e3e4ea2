package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// shutdownSignals end pkgdocs: an interrupt from a terminal, and SIGTERM,
// which service managers and container runtimes send to stop a server
// (on Windows only the interrupt is ever delivered). A team server then
// drains: /readyz answers 503, answers in flight finish within
// --drain-timeout, then it exits.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// notifyShutdown returns a context that is done when a shutdown signal
// arrives, and the function that stops listening for them.
func notifyShutdown(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, shutdownSignals...)
}
