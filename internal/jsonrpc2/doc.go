// Package jsonrpc2 is the JSON-RPC 2.0 engine of the SDK: message types and
// IDs, strict decoding (case-sensitive members, no duplicate keys, bounded
// depth and size), newline-delimited framing, batches, an in-memory pipe,
// and Conn, which matches responses to outgoing calls and dispatches
// incoming requests concurrently with a bound, per-request contexts,
// cancellation and orderly shutdown.
package jsonrpc2
