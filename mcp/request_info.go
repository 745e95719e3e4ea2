package mcp

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// A RequestInfo describes the JSON-RPC message that a middleware or handler
// is handling or sending. [RequestInfoFromContext] returns it.
type RequestInfo struct {
	// ID is the JSON-RPC id of a request: a string or an int64. It is nil
	// for a notification. A request being sent has its id before the
	// sending middleware runs; if the middleware sends it again, each send
	// takes a new id, which the context tells once the next handler
	// returns. A server's request to the client has an id in the legacy
	// era only: in 2026-07-28 a server asks through an input-required
	// result, and its elicitation, sampling or roots request has none.
	ID any
	// Method is the message's method, such as "tools/call".
	Method string
	// Sending reports whether the message is outgoing (sending middleware)
	// rather than incoming (receiving middleware and handlers).
	Sending bool
	// Transport describes the connection the message travels on.
	Transport TransportInfo
}

// A TransportInfo describes the connection between client and server, as
// telemetry reports it.
type TransportInfo struct {
	// Network is how the peers are connected: [NetworkPipe] (standard
	// streams or io pipes), [NetworkInMemory], or [NetworkTCP] (HTTP). It is
	// empty when a custom transport is in use.
	Network string
	// HTTPVersion is the HTTP version of the request ("1.1", "2") when the
	// message came in an HTTP request the server can see; otherwise empty.
	HTTPVersion string
	// RemoteAddr is the peer's network address, when known: on the server
	// side of HTTP the client's address, on the client side the server's
	// host and port as the endpoint URL gives them.
	RemoteAddr string
}

// Values of TransportInfo.Network.
const (
	// NetworkPipe is a transport over standard streams or io pipes: stdio,
	// CommandTransport, IOTransport.
	NetworkPipe = "pipe"
	// NetworkInMemory is an InMemoryTransport.
	NetworkInMemory = "inmemory"
	// NetworkTCP is a transport over HTTP: streamable HTTP or SSE.
	NetworkTCP = "tcp"
)

// RequestInfoFromContext returns the description of the message that ctx
// is handling or sending, and whether ctx belongs to one: it does in
// middleware (both directions) and in the handlers they call.
func RequestInfoFromContext(ctx context.Context) (RequestInfo, bool) {
	rc, ok := ctx.Value(requestContextKey{}).(*requestContext)
	if !ok {
		return RequestInfo{}, false
	}
	info := RequestInfo{Method: rc.method, Sending: rc.sending, Transport: rc.transport()}
	if rc.hasID {
		info.ID = idValue(rc.id)
	}
	return info, true
}

// idValue converts a JSON-RPC id to a string or an int64.
func idValue(id jsonrpc2.ID) any {
	switch v := id.Raw().(type) {
	case string:
		return v
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return nil
}

type requestContextKey struct{}

// A requestContext is the context of one message being handled or sent:
// its parent plus what RequestInfoFromContext reports, in one allocation.
type requestContext struct {
	context.Context
	method  string
	id      jsonrpc2.ID
	hasID   bool
	idUsed  bool // a request was sent with id
	sending bool
	server  *ServerSession // the session handling or sending, one of the two
	client  *ClientSession
	// send is the base of a sending chain: what the message's sender does
	// once the middleware has run. It is a plain function, its state the
	// fields of rc, so sending costs no closure.
	send func(rc *requestContext, ctx context.Context, params any) (any, error)
	// results makes the value a sent request's result decodes into; raw
	// is the result as received.
	results resultMaker
	raw     []byte
}

// Value returns the requestContext itself for its own key and for
// jsonrpc2's CallIDKey, so the id of an outgoing call is noted in it.
func (rc *requestContext) Value(key any) any {
	switch key.(type) {
	case requestContextKey:
		return rc
	case jsonrpc2.CallIDKey:
		if rc.sending {
			return rc
		}
	}
	return rc.Context.Value(key)
}

// NoteCallID records the id of the request being sent, and tells it to
// a WithRequestIDFunc of the context it was sent with.
func (rc *requestContext) NoteCallID(id jsonrpc2.ID) {
	rc.id, rc.hasID = id, true
	if rc.Context != nil {
		jsonrpc2.NoteCallID(rc.Context, id)
	}
}

// WithRequestIDFunc returns a copy of ctx that tells f the JSON-RPC id of
// each request a ClientSession sends with it, just before the request is
// written (a string or an int64). A long-lived request, such as the
// Events extension's events/stream, is answered with notifications that
// carry its id in Meta.SubscriptionID; f lets its caller match them to it.
func WithRequestIDFunc(ctx context.Context, f func(id any)) context.Context {
	return context.WithValue(ctx, jsonrpc2.CallIDKey{}, requestIDFunc(f))
}

// A requestIDFunc is the jsonrpc2.CallIDNoter of WithRequestIDFunc.
type requestIDFunc func(id any)

// NoteCallID tells f the id.
func (f requestIDFunc) NoteCallID(id jsonrpc2.ID) { f(idValue(id)) }

// callID returns the id to send the request rc describes with: the one
// reserved before the sending middleware ran, or a new one from ids when
// there is none (rc is nil without middleware) or the middleware sends the
// request again.
func (rc *requestContext) callID(ids interface{ NewCallID() jsonrpc2.ID }) jsonrpc2.ID {
	if rc == nil || !rc.hasID || rc.idUsed {
		return ids.NewCallID()
	}
	rc.idUsed = true
	return rc.id
}

// incomingContext returns the context of an incoming message. A server
// session scoped to one request has it allocated with it.
func incomingContext(ctx context.Context, req *jsonrpc2.Request, ss *ServerSession, cs *ClientSession) *requestContext {
	var rc *requestContext
	if ss != nil && ss.request != nil {
		rc = &ss.request.rc
	} else {
		rc = new(requestContext)
	}
	*rc = requestContext{Context: ctx, method: req.Method, id: req.ID, hasID: !req.IsNotification(), server: ss, client: cs}
	return rc
}

// transport describes the connection of the message.
func (rc *requestContext) transport() TransportInfo {
	if rc.client != nil {
		return rc.client.transport
	}
	if rc.server != nil {
		if t := rc.server.root().transport; t.Network != "" {
			return t
		}
	}
	if r := HTTPRequestFromContext(rc.Context); r != nil {
		return httpTransportInfo(r)
	}
	if rc.Context.Value(http.LocalAddrContextKey) != nil {
		return TransportInfo{Network: NetworkTCP}
	}
	return TransportInfo{}
}

// httpTransportInfo describes the connection of the HTTP request r.
func httpTransportInfo(r *http.Request) TransportInfo {
	t := TransportInfo{Network: NetworkTCP, RemoteAddr: r.RemoteAddr}
	switch {
	case r.ProtoMajor == 1 && r.ProtoMinor == 1:
		t.HTTPVersion = "1.1"
	case r.ProtoMajor == 1:
		t.HTTPVersion = "1." + strconv.Itoa(r.ProtoMinor)
	default:
		t.HTTPVersion = strconv.Itoa(r.ProtoMajor)
	}
	return t
}

// sessionIDOf returns the session id a server transport carries: the
// sessionId of the HTTP+SSE transport's message endpoint.
func sessionIDOf(t Transport) string {
	st, ok := t.(*SSEServerTransport)
	if !ok {
		return ""
	}
	u, err := url.Parse(st.endpoint)
	if err != nil {
		return ""
	}
	return u.Query().Get("sessionId")
}

// transportInfoOf describes the connections a transport makes.
func transportInfoOf(t Transport) TransportInfo {
	switch t := t.(type) {
	case *InMemoryTransport:
		return TransportInfo{Network: NetworkInMemory}
	case *IOTransport, *StdIOTransport, *CommandTransport:
		return TransportInfo{Network: NetworkPipe}
	case *StreamableClientTransport:
		info := TransportInfo{Network: NetworkTCP}
		if u, err := url.Parse(t.url); err == nil {
			info.RemoteAddr = u.Host
		}
		return info
	case *SSEClientTransport:
		return TransportInfo{Network: NetworkTCP, RemoteAddr: t.url.Host}
	case *SSEServerTransport, *StreamableServerTransport:
		return TransportInfo{Network: NetworkTCP}
	case *LoggingTransport:
		return transportInfoOf(t.delegate)
	}
	return TransportInfo{}
}
