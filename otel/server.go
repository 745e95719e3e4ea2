package otel

import "github.com/gomcp/sdk/mcp"

// InstrumentServer makes s emit OpenTelemetry spans and metrics named by
// the MCP semantic conventions, and carry trace context in params._meta:
//   - every request and notification s handles gets a SERVER span, a child
//     of the trace context the client sent in its _meta, and an
//     mcp.server.operation.duration measurement;
//   - every request and notification s sends (sampling, elicitation and
//     roots requests, progress and list-change notifications) gets a
//     CLIENT span, whose trace context goes into its _meta, and an
//     mcp.client.operation.duration measurement;
//   - every session gets an mcp.server.session.duration measurement when
//     it ends.
//
// Log notifications (notifications/message) are neither traced nor
// measured. Call InstrumentServer once, before adding middleware of your
// own, so that the spans cover that middleware too.
func InstrumentServer(s *mcp.Server, opts *Options) {
	in := newInstruments(opts, metricServerSession)
	s.AddMiddleware(receiving(in, serverPeer))
	s.AddSendingMiddleware(sending(in, serverPeer))
	s.AddSessionObserver(func(ss *mcp.ServerSession) func(error) {
		return in.observeSession(func() peer { return serverPeer(ss, ss.Transport()) })
	})
}

// serverPeer reads what the attributes need from a server session whose
// messages travel on t.
func serverPeer(ss *mcp.ServerSession, t mcp.TransportInfo) peer {
	p := peer{protocolVersion: ss.ProtocolVersion(), sessionID: ss.ID()}
	p.setTransport(t)
	return p
}
