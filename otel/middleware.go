package otel

import (
	"context"

	"github.com/gomcp/sdk/mcp"
)

// session is either side's session type.
type session interface {
	mcp.ClientSession | mcp.ServerSession
}

// describer tells what the attributes need to know about a session whose
// message travels on transport t.
type describer[S session] func(s *S, t mcp.TransportInfo) peer

// receiving returns the middleware that observes the messages a side
// handles: it extracts the trace context from their _meta and wraps each in
// a SERVER span and a measurement.
func receiving[S session](in *instruments, describe describer[S]) mcp.Middleware[S] {
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
			info, _ := mcp.RequestInfoFromContext(ctx)
			op := in.begin(ctx, d, method, params, formatID(info.ID), describe(s, info.Transport), link, tracing, metrics)
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

// sending returns the middleware that observes the messages a side sends:
// it wraps each in a CLIENT span and a measurement, and injects the span's
// trace context into their _meta.
func sending[S session](in *instruments, describe describer[S]) mcp.Middleware[S] {
	d := &in.outgoing
	return func(next mcp.MethodHandler[S]) mcp.MethodHandler[S] {
		return func(ctx context.Context, s *S, method string, params any) (res any, err error) {
			if method == mcp.NotificationLoggingMessage {
				return next(ctx, s, method, params)
			}
			tracing, metrics := in.tracing(), d.duration.Enabled(ctx)
			if !tracing && !metrics {
				in.inject(ctx, params) // pass on a trace context this side only carries
				return next(ctx, s, method, params)
			}
			// A request has its id now, reserved before the sending
			// middleware ran (a server's request to the client has one in
			// the legacy era only); one without is looked up at the end.
			info, _ := mcp.RequestInfoFromContext(ctx)
			id := formatID(info.ID)
			op := in.begin(ctx, d, method, params, id, describe(s, info.Transport), noLink, tracing, metrics)
			in.inject(op.ctx, params)
			done := false
			defer func() {
				if !done {
					op.abandon()
				}
			}()
			res, err = next(op.ctx, s, method, params)
			done = true
			if id == "" && !isNotification(method) {
				id = requestID(op.ctx)
			} else {
				id = "" // set when the span started
			}
			op.end(res, err, id)
			return res, err
		}
	}
}

// requestID returns the JSON-RPC id of the request ctx belongs to, as a
// string, or "" for a notification or a request without one.
func requestID(ctx context.Context) string {
	info, ok := mcp.RequestInfoFromContext(ctx)
	if !ok {
		return ""
	}
	return formatID(info.ID)
}
