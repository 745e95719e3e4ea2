package mcp

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Panic recovery: like net/http, the SDK turns a panic in a handler or
// middleware into an internal error for that one request, logs the stack
// once, and keeps the session and the process going. ServerOptions and
// ClientOptions.DisablePanicRecovery turn this off.

// panicError logs a panic recovered while serving method, with its stack,
// and returns the error the peer gets: an internal error that does not
// reveal the panic's value.
func panicError(log *slog.Logger, method string, v any) error {
	log.Error("mcp: recovered panic", "method", method, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	return newError(CodeInternalError, "internal error while serving %s", method)
}
