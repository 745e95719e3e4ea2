package otel

import (
	"context"

	"github.com/gomcp/sdk/mcp"
)

// session is either side's session type.
type session interface {
	mcp.ClientSession | mcp.ServerSession
}

// describer tells what the attributes need to know about a session and the
// message in ctx.
type describer[S session] func(ctx context.Context, s *S) peer

// receiving returns the middleware that observes the messages a side
// handles: it extracts the trace context from their _meta and wraps each in
// a SERVER span and a measurement.
func receiving[S session](in *instruments, describe describer[S], requestID func(context.Context) string) mcp.Middleware[S] {
	d := &in.incoming
	return func(next mcp.MethodHandler[S]) mcp.MethodHandler[S] {
		return func(ctx context.Context, s *S, method string, params any) (res any, err error) {
			if method == mcp.NotificationLoggingMessage {
				return next(ctx, s, method, params)
			}
			ctx, link := in.extract(ctx, params)
			tracing, metrics := in.tracing(), d.duration.Enabled(ctx)
			if !tracing && !metrics {
				return next(ctx, s, method, params)
			}
			id := ""
			if !isNotification(method) {
				id = requestID(ctx)
			}
			op := in.begin(ctx, d, method, params, id, describe(ctx, s), link, tracing, metrics)
			done := false
			defer func() {
				if !done {
					op.abandon()
				}
			}()
			res, err = next(op.ctx, s, method, params)
			done = true
			op.end(res, err, "")
			return res, err
		}
	}
}
