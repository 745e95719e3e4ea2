package otel

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// noLink is the absent link of a span with nothing to link to.
var noLink trace.SpanContext

// observeSession starts timing a session and returns the function that
// records its duration when it ends. describe is called then, when the
// session's protocol version is settled.
func (in *instruments) observeSession(describe func() peer) func(error) {
	start := time.Now()
	return func(err error) {
		ctx := context.Background()
		if !in.session.Enabled(ctx) {
			return
		}
		p := describe()
		var buf [8]attribute.KeyValue
		attrs := buf[:0]
		if p.protocolVersion != "" {
			attrs = append(attrs, keyProtocolVersion.String(p.protocolVersion))
		}
		attrs = p.appendNetwork(attrs, in.client)
		if err != nil {
			attrs = append(attrs, keyErrorType.String(sessionErrorType(err)))
		}
		in.session.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	}
}

// sessionErrorType is the error.type of a session that ended in error.
func sessionErrorType(err error) string {
	errType, _, _ := classify(nil, err, false)
	return errType
}

// setTransport fills the network attributes of p from the transport
// description.
func (p *peer) setTransport(t mcp.TransportInfo) {
	switch t.Network {
	case mcp.NetworkPipe, mcp.NetworkInMemory:
		p.transport = "pipe"
	case mcp.NetworkTCP:
		p.transport = "tcp"
		p.protocolName = "http"
		p.protocolVer = t.HTTPVersion
	}
	if t.RemoteAddr != "" {
		p.address, p.port = splitAddr(t.RemoteAddr)
	}
}

// splitAddr splits host:port; an address without a port is all host.
func splitAddr(addr string) (string, int) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return host, 0
	}
	return host, n
}
