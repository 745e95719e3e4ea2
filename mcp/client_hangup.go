package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// Servers that hang up on the probe. A server older than protocol
// 2026-07-28 may treat server/discover, a method it does not know, as
// fatal: over stdio it exits, or closes its stdout, instead of answering
// with an error (go-sdk issue 1177 describes such servers). The client's
// probe then ends with the connection. A transport that starts its server
// itself (CommandTransport) can start it again: Client.Connect does, and
// connects with initialize, and the transport remembers that its server is
// legacy, so that later connections skip the probe. Over any other
// transport the connection fails with errProbeHangUp, which tells the user
// how to skip the probe.

// errProbeHangUp reports a server that closed the connection when probed
// with server/discover, over a transport that cannot start it again.
var errProbeHangUp = errors.New("mcp: the server closed the connection when probed with server/discover " +
	"(a server older than 2026-07-28 may quit on a method it does not know: set ClientOptions.ProtocolVersion " +
	"to 2025-11-25 to connect with initialize alone; or the server failed to start: see its stderr)")

// legacyMemory remembers, for a transport, that its server hung up on
// server/discover and speaks the initialize handshake.
type legacyMemory struct {
	known atomic.Bool
}

// isLegacy reports whether the server is known to be legacy. A nil memory
// knows nothing.
func (m *legacyMemory) isLegacy() bool { return m != nil && m.known.Load() }

// remember records that the server is legacy.
func (m *legacyMemory) remember() { m.known.Store(true) }

// legacyMemoryOf returns the memory of a transport that starts a new
// server on each Connect, or nil for one that cannot.
func legacyMemoryOf(t Transport) *legacyMemory {
	switch t := t.(type) {
	case *CommandTransport:
		return &t.legacy
	case *LoggingTransport:
		return legacyMemoryOf(t.delegate)
	}
	return nil
}

// reconnectLegacy is Connect's second attempt after the server hung up on
// the probe: it closes the first connection (which waits for its process
// to exit), connects again over t, which starts a new server, and runs the
// initialize handshake. On success the transport remembers the server is
// legacy.
func (c *Client) reconnectLegacy(ctx context.Context, t Transport, first *ClientSession, mem *legacyMemory) (*ClientSession, error) {
	// The first process has hung up already; how it ended is beside the
	// point, and the new one starts only once it has.
	_ = first.conn.Close()
	cs, err := c.newSession(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := cs.initialize(ctx, legacyLatest); err != nil {
		return cs, fmt.Errorf("after the server hung up on server/discover and was started again: %w", err)
	}
	mem.remember()
	return cs, nil
}
