// Package events serves and reads MCP Events (the
// "io.modelcontextprotocol/events" extension, SEP-3415): a server
// declares event types, each with a name, a description, the delivery
// modes it offers and JSON Schemas for its subscription arguments and its
// payload, and emits occurrences of them from anywhere in the program; a
// client lists the types and receives occurrences by polling
// (events/poll) or on a push stream (events/stream).
//
// A server turns the extension on with NewServer, which declares it in
// the server's capabilities (in capabilities.extensions for protocol
// 2026-07-28, and as the top-level "events" member that deployed clients
// of the earlier revisions read) and serves events/list, events/poll and
// events/stream in every revision. Types are made with NewType, whose
// schemas are inferred from Go types as a typed tool's are, and added
// with Server.AddTypes; Server.Emit records an occurrence.
//
// Occurrences live in a Log, the storage seam: an ordered record per
// event type whose positions are the cursors clients hold, so that several
// server instances sharing one Log hand out cursors any of them can
// resume. MemoryLog is the default; package eventstest holds the contract
// tests every Log must pass. Each instance serves the types its program
// declared; a change of them is announced (notifications/events/list_changed)
// as a tools list change is: to the clients of every instance sharing the
// mcp.Server's EventBus.
//
// A client declares the extension with EnableClient and calls ListTypes,
// Poll (one request), PollLoop (polls until cancelled, draining hasMore
// and waiting nextPollMs, at least one second) or Stream (a push stream
// that reconnects from its last cursor when two heartbeats go missing).
//
// Webhook delivery (events/subscribe, events/unsubscribe) is not served
// here: ServerOptions.Webhooks is where ext/events/webhook plugs in.
// Without it a server answers events/subscribe as one without webhook
// support does.
package events
