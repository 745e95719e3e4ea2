// Package otel instruments MCP servers and clients with OpenTelemetry,
// following the OpenTelemetry semantic conventions for MCP.
//
// [InstrumentServer] and [InstrumentClient] each take one call. They add
// middleware in both directions and a session observer:
//
//   - the sender of every request and notification makes a CLIENT span,
//     named "{mcp.method.name} {target}" (for example "tools/call greet"),
//     and writes its trace context into the message's params._meta
//     (traceparent, tracestate, baggage: the keys MCP reserves for W3C
//     Trace Context and Baggage);
//   - the receiver makes a SERVER span whose parent is that trace context,
//     so that a tool call's server span is a child of the client's span
//     over any transport, in every protocol version; requests the server
//     sends to the client (sampling, elicitation, roots) are traced the
//     same way in the other direction;
//   - four histograms measure operations and sessions:
//     mcp.client.operation.duration, mcp.server.operation.duration,
//     mcp.client.session.duration and mcp.server.session.duration.
//
// A tools/call sent under an agent's execute_tool span adds its attributes
// to that span rather than starting one ([Options].NestToolSpans changes
// that). Tool arguments and results are recorded only when
// [Options].RecordToolCalls asks for them.
//
// The package depends on the OpenTelemetry API only: the program installs
// the SDK and exporters it wants, passes their providers in [Options] or
// installs them globally. With no provider installed, the instrumentation
// starts no span and allocates nothing.
package otel
