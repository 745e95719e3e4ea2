package otel

import (
	"context"

	"github.com/gomcp/sdk/mcp"
)

// InstrumentServer makes s emit OpenTelemetry spans and metrics named by
// the MCP semantic conventions, and carry trace context in params._meta:
//   - a SERVER span and an mcp.server.operation.duration measurement for
//     every request and notification s handles (notifications/message
//     excepted), parented by the trace context the client put in _meta;
//
// Call it once, before adding middleware of your own, so that the spans
// cover that middleware too.
func InstrumentServer(s *mcp.Server, opts *Options) {
	in := newInstruments(opts, metricServerSession)
	s.AddMiddleware(receiving(in, describeServer, noRequestID))
}

// describeServer reads what the attributes need from a server session.
func describeServer(ctx context.Context, ss *mcp.ServerSession) peer {
	return peer{protocolVersion: ss.ProtocolVersion()}
}

func noRequestID(context.Context) string { return "" }
