package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// A MethodHandler handles one MCP request or notification after its params
// have been decoded. params is the method's *XxxParams (for example
// *CallToolParams). For a request it returns the method's *XxxResult and a
// nil error, or a nil result and an error; for a notification it returns
// nil, nil.
//
// In sending middleware the handler sends the message instead: params is
// what goes on the wire, and the result is the peer's decoded answer (an
// error response is a *JSONRPCError).
type MethodHandler[S ClientSession | ServerSession] func(ctx context.Context, session *S, method string, params any) (result any, err error)

// Middleware wraps a MethodHandler, to observe or change the requests and
// notifications a client or server receives (receiving middleware) or
// sends (sending middleware). [RequestInfoFromContext] tells it the
// message's id, and the session its protocol version.
type Middleware[S ClientSession | ServerSession] func(MethodHandler[S]) MethodHandler[S]

// chain applies middleware right to left, so that the first runs first.
func chain[S ClientSession | ServerSession](h MethodHandler[S], middleware []Middleware[S]) MethodHandler[S] {
	for i := len(middleware) - 1; i >= 0; i-- {
		h = middleware[i](h)
	}
	return h
}

// middlewareChain is one direction's middleware of a client or server, and
// the handler they make. Its owner's mutex guards it.
type middlewareChain[S ClientSession | ServerSession] struct {
	middleware []Middleware[S]
	handler    MethodHandler[S] // nil for an empty sending chain
}

// add appends middleware and rebuilds the handler around base.
func (mc *middlewareChain[S]) add(base MethodHandler[S], middleware []Middleware[S]) {
	mc.middleware = append(mc.middleware, middleware...)
	mc.handler = chain(base, mc.middleware)
}

// sendBase is the innermost handler of a sending chain: it does what the
// message's sender asked for, which the request context carries.
func sendBase[S ClientSession | ServerSession](ctx context.Context, _ *S, _ string, params any) (any, error) {
	rc, ok := ctx.Value(requestContextKey{}).(*requestContext)
	if !ok || rc.send == nil {
		return nil, errorf("mcp: sending middleware replaced the context of the message it sends")
	}
	return rc.send(rc, ctx, params)
}

// sendVia runs an outgoing message, described by rc (its method, session
// and send function), through the sending handler h.
func sendVia[S ClientSession | ServerSession](ctx context.Context, h MethodHandler[S], rc *requestContext, s *S, params any) (any, error) {
	rc.Context, rc.sending = ctx, true
	return h(rc, s, rc.method, params)
}

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
