package otel

import "github.com/gomcp/sdk/mcp"

// InstrumentClient makes c emit OpenTelemetry spans and metrics named by
// the MCP semantic conventions, and carry trace context in params._meta:
//   - every request and notification c sends gets a CLIENT span, whose
//     trace context goes into its _meta, so that the server's span is its
//     child, and an mcp.client.operation.duration measurement;
//   - every request and notification c handles (sampling, elicitation and
//     roots requests from the server, notifications) gets a SERVER span, a
//     child of the trace context the server sent, and an
//     mcp.server.operation.duration measurement;
//   - every session gets an mcp.client.session.duration measurement when
//     it ends.
//
// Log notifications (notifications/message) are neither traced nor
// measured. Call InstrumentClient once, before adding middleware of your
// own.
func InstrumentClient(c *mcp.Client, opts *Options) {
	in := newInstruments(opts, metricClientSession)
	c.AddSendingMiddleware(sending(in, clientPeer))
	c.AddMiddleware(receiving(in, clientPeer))
	c.AddSessionObserver(func(cs *mcp.ClientSession) func(error) {
		return in.observeSession(func() peer { return clientPeer(cs, cs.Transport()) })
	})
}

// clientPeer reads what the attributes need from a client session whose
// messages travel on t.
func clientPeer(cs *mcp.ClientSession, t mcp.TransportInfo) peer {
	p := peer{protocolVersion: cs.ProtocolVersion(), sessionID: cs.ID()}
	p.setTransport(t)
	return p
}
