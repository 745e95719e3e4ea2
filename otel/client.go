package otel

import (
	"context"

	"github.com/gomcp/sdk/mcp"
)

// InstrumentClient makes c emit OpenTelemetry spans and metrics named by
// the MCP semantic conventions, and carry trace context in params._meta.
//
// Call it once, before adding middleware of your own.
func InstrumentClient(c *mcp.Client, opts *Options) {
	in := newInstruments(opts, metricClientSession)
	c.AddMiddleware(receiving(in, describeClient, noRequestID))
}

// describeClient reads what the attributes need from a client session.
func describeClient(ctx context.Context, cs *mcp.ClientSession) peer {
	return peer{protocolVersion: cs.ProtocolVersion()}
}
