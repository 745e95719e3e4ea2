package mcp

import "context"

// A MethodHandler handles one MCP request or notification after its params
// have been decoded. params is the method's *XxxParams (for example
// *CallToolParams). For a request it returns the method's *XxxResult and a
// nil error, or a nil result and an error; for a notification it returns
// nil, nil.
type MethodHandler[S ClientSession | ServerSession] func(ctx context.Context, session *S, method string, params any) (result any, err error)

// Middleware wraps a MethodHandler, to observe or change every request and
// notification a client or server handles.
type Middleware[S ClientSession | ServerSession] func(MethodHandler[S]) MethodHandler[S]

// chain applies middleware right to left, so that the first runs first.
func chain[S ClientSession | ServerSession](h MethodHandler[S], middleware []Middleware[S]) MethodHandler[S] {
	for i := len(middleware) - 1; i >= 0; i-- {
		h = middleware[i](h)
	}
	return h
}
