package otel

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// instruments are what one instrumented server or client records with.
type instruments struct {
	providers
	// incoming are messages this side handles (SERVER spans), outgoing
	// the ones it sends (CLIENT spans).
	incoming, outgoing direction
	// session records the duration of this side's sessions.
	session metric.Float64Histogram
	// client is set for a client's instruments.
	client bool
}

// A direction is what spans and measurements of messages going one way
// share.
type direction struct {
	start    []trace.SpanStartOption // the span kind
	duration metric.Float64Histogram
	server   bool // SERVER spans: an error without a JSON-RPC code is sent as -32603
	// statics are what operations with equal keys share, looked up once
	// per operation: the span's name and attributes and the measurement's
	// options of a success, or only the measurement's of a failure.
	statics cache[opStatic]
}

// newInstruments resolves the options and makes the histograms. sessionMetric
// is the name of this side's session histogram.
func newInstruments(opts *Options, sessionMetric string) *instruments {
	in := &instruments{providers: resolve(opts), client: sessionMetric == metricClientSession}
	in.incoming = direction{
		start:    []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)},
		duration: in.histogram(metricServerOperation, "Duration of MCP requests and notifications as handled by their receiver."),
		server:   true,
	}
	in.outgoing = direction{
		start:    []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient)},
		duration: in.histogram(metricClientOperation, "Duration of MCP requests and notifications as seen by their sender."),
	}
	desc := "Duration of MCP client sessions."
	if sessionMetric == metricServerSession {
		desc = "Duration of MCP server sessions."
	}
	in.session = in.histogram(sessionMetric, desc)
	return in
}

// histogram makes a duration histogram with the conventional buckets. A
// meter that fails to make one gets its no-op stand-in, which the
// OpenTelemetry API returns with the error.
func (in *instruments) histogram(name, desc string) metric.Float64Histogram {
	h, _ := in.meter.Float64Histogram(name,
		metric.WithUnit("s"),
		metric.WithDescription(desc),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	return h
}

// peer describes the session a message travels on.
type peer struct {
	protocolVersion string
	sessionID       string // the Mcp-Session-Id of an HTTP session, else ""
	transport       string // network.transport: "pipe" or "tcp"; "" when unknown
	protocolName    string // network.protocol.name, e.g. "http"
	protocolVer     string // network.protocol.version, e.g. "1.1"
	address         string // the peer's host: server.address on CLIENT spans, client.address on SERVER spans
	port            int
}

// An operation is one message being observed: its span, if one was
// started, and what its measurement needs.
type operation struct {
	ctx     context.Context
	span    trace.Span // nil when no span was started
	start   time.Time
	d       *direction
	method  string
	params  any
	peer    peer
	metrics bool
	// toolCalls is the byte limit of recorded tool call content, 0 when
	// it is not recorded.
	toolCalls int
	// adopted reports that span is an outer execute_tool span the
	// operation added its attributes to, rather than one it started: its
	// owner ends it.
	adopted bool
	// static is what the operation shares with others of its key, for a
	// successful outcome.
	static opStatic
}

// begin starts observing a message: it starts the span when tracing is on
// and notes the time. parent is the context the span descends from; link,
// when valid, is a span the new one links to (an enclosing HTTP span that
// the _meta trace context replaced as parent). requestID is the JSON-RPC
// id of an incoming request, "" for a notification or when unknown.
func (in *instruments) begin(parent context.Context, d *direction, method string, params any, requestID string, p peer, link trace.SpanContext, tracing, metrics bool) operation {
	op := operation{ctx: parent, start: time.Now(), d: d, method: method, params: params, peer: p, metrics: metrics, toolCalls: in.toolCalls}
	op.static = d.statics.get(op.key("", ""), func() opStatic { return op.makeStatic("", "", true) })
	if !tracing {
		return op
	}
	static := &op.static
	// One slice for all the attributes: the span's configuration copies
	// them once, where several options would make it grow the copy. The
	// slice and the options are borrowed from a pool, since Start is done
	// with them when it returns.
	sa := spanArgsPool.Get().(*spanArgs)
	sa.attrs = append(sa.attrs[:0], static.attrs...)
	sa.attrs = appendDynamic(sa.attrs, params, &op.peer, d.server, requestID)
	if outer := in.outerToolSpan(parent, d, method); outer != nil {
		outer.SetAttributes(sa.attrs...)
		sa.release()
		op.span, op.adopted = outer, true
		op.recordArguments(in.toolCalls)
		return op
	}
	opts := append(sa.opts[:0], d.start[0], trace.WithAttributes(sa.attrs...))
	if link.IsValid() {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: link}))
	}
	ctx, span := in.tracer.Start(parent, static.name, opts...)
	sa.release()
	if span.IsRecording() {
		op.ctx, op.span = ctx, span
		op.recordArguments(in.toolCalls)
	} else {
		op.ctx = ctx // carries a non-recording span: the trace context still propagates
	}
	return op
}

// spanArgs are the arguments of one Start call: the span's attributes and
// options, reused from span to span. The OpenTelemetry API's span
// configuration (trace.NewSpanStartConfig), which tracer providers build
// from the options, copies the attributes and links it is given, so they
// are free again when Start returns.
type spanArgs struct {
	attrs []attribute.KeyValue
	opts  [3]trace.SpanStartOption
}

var spanArgsPool = sync.Pool{New: func() any {
	// Room for the shared attributes (at most 9) and the dynamic ones.
	return &spanArgs{attrs: make([]attribute.KeyValue, 0, 9+maxDynamic)}
}}

// release clears what sa refers to, so that the pool keeps no attribute
// value or span context alive, and returns sa to the pool.
func (sa *spanArgs) release() {
	clear(sa.attrs)
	sa.attrs = sa.attrs[:0]
	sa.opts = [3]trace.SpanStartOption{}
	spanArgsPool.Put(sa)
}

// opStatic is what operations with equal keys share: the name of their
// spans and the attributes that do not identify one message, and the
// options of their measurements (the attribute set, made once: making a
// set sorts and copies the attributes).
type opStatic struct {
	name   string
	attrs  []attribute.KeyValue
	record []metric.RecordOption
}

// makeStatic makes the operation's opStatic for an outcome; span adds the
// span's part, which only a success's (the key's without an outcome)
// needs.
func (op *operation) makeStatic(errType, code string, span bool) opStatic {
	var st opStatic
	if span {
		st.name = spanName(op.method, op.params)
		st.attrs = appendStatic(nil, op.method, op.params, target(op.params), &op.peer, op.d.server)
	}
	attrs := appendStatic(make([]attribute.KeyValue, 0, 16), op.method, op.params, op.target(code), &op.peer, op.d.server)
	if errType != "" {
		attrs = append(attrs, keyErrorType.String(errType))
		if code != "" {
			attrs = append(attrs, keyStatusCode.String(code))
		}
	}
	st.record = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(attrs...))}
	return st
}

// key returns the cache key of the operation's attributes, with the given
// outcome.
func (op *operation) key(errType, code string) measureKey {
	p := &op.peer
	k := measureKey{
		method: op.method, target: op.target(code), errType: errType, code: code,
		protocolVersion: p.protocolVersion, transport: p.transport, protocolName: p.protocolName, protocolVer: p.protocolVer,
	}
	if !op.d.server {
		k.address, k.port = p.address, p.port
	}
	return k
}

// end finishes observing: it classifies the outcome, ends the span and
// records the duration. requestID is the JSON-RPC id when known only now
// (an outgoing request's), or "".
func (op *operation) end(res any, err error, requestID string) {
	elapsed := time.Since(op.start)
	errType, code, desc := classify(res, err, op.d.server)
	if r, ok := res.(*mcp.InitializeResult); ok && r != nil && op.peer.protocolVersion == "" {
		op.peer.protocolVersion = r.ProtocolVersion
		op.static.record = nil // the measurement's key changed: looked up again
	}
	if span := op.span; span != nil {
		recordResult(span, res, op.toolCalls)
		var attrs []attribute.KeyValue
		if requestID != "" {
			attrs = append(attrs, keyRequestID.String(requestID))
		}
		if _, ok := res.(*mcp.InitializeResult); ok && op.peer.protocolVersion != "" {
			attrs = append(attrs, keyProtocolVersion.String(op.peer.protocolVersion))
		}
		if errType != "" {
			attrs = append(attrs, keyErrorType.String(errType))
			if code != "" {
				attrs = append(attrs, keyStatusCode.String(code))
			}
			span.SetStatus(codes.Error, desc)
		}
		if len(attrs) > 0 {
			span.SetAttributes(attrs...)
		}
		if !op.adopted {
			span.End()
		}
	}
	if op.metrics {
		op.record(elapsed.Seconds(), errType, code)
	}
}

// target is the tool or prompt name the operation's measurement carries.
// A request this side handled that failed with a JSON-RPC error (an
// unknown tool or prompt) may name anything its sender chose: the name is
// measured as "_OTHER", so that a peer cannot make the measurements grow
// without bound. Spans keep the name.
func (op *operation) target(code string) string {
	t := target(op.params)
	if t != "" && code != "" && op.d.server {
		return errorTypeOther
	}
	return t
}

// record makes the operation's measurement. A success's options were
// looked up when the operation began; a failure's are looked up now.
func (op *operation) record(seconds float64, errType, code string) {
	opts := op.static.record
	if errType != "" || opts == nil {
		opts = op.d.statics.get(op.key(errType, code), func() opStatic { return op.makeStatic(errType, code, errType == "") }).record
	}
	op.d.duration.Record(op.ctx, seconds, opts...)
}

// abandon ends a span whose handler panicked; the panic goes on.
func (op *operation) abandon() {
	if op.span != nil {
		op.span.SetAttributes(keyErrorType.String(errorTypeOther))
		op.span.SetStatus(codes.Error, "panic")
		if !op.adopted {
			op.span.End()
		}
	}
}

// spanName is "{mcp.method.name} {target}", the target being the tool or
// prompt name when the method has one.
func spanName(method string, params any) string {
	if t := target(params); t != "" {
		return method + " " + t
	}
	return method
}

// target returns the tool or prompt a message is about, or "".
func target(params any) string {
	switch p := params.(type) {
	case *mcp.CallToolParams:
		if p != nil {
			return p.Name
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.Name
		}
	}
	return ""
}

// resourceURI returns the resource a message is about, or "".
func resourceURI(params any) string {
	switch p := params.(type) {
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.URI
		}
	case *mcp.SubscribeParams:
		if p != nil {
			return p.URI
		}
	case *mcp.UnsubscribeParams:
		if p != nil {
			return p.URI
		}
	case *mcp.ResourceUpdatedParams:
		if p != nil {
			return p.URI
		}
	}
	return ""
}

// appendStatic appends the attributes of a message that spans and
// measurements share: those that do not identify one message, session or
// peer (whose cardinality is unbounded). target is the tool or prompt name
// to report.
func appendStatic(attrs []attribute.KeyValue, method string, params any, target string, p *peer, server bool) []attribute.KeyValue {
	attrs = append(attrs, keyMethodName.String(method))
	switch pr := params.(type) {
	case *mcp.CallToolParams:
		if pr != nil {
			attrs = append(attrs, keyToolName.String(target), keyOperationName.String(operationExecuteTool))
		}
	case *mcp.GetPromptParams:
		if pr != nil {
			attrs = append(attrs, keyPromptName.String(target))
		}
	}
	if p.protocolVersion != "" {
		attrs = append(attrs, keyProtocolVersion.String(p.protocolVersion))
	}
	return p.appendNetwork(attrs, !server)
}

// maxDynamic is the most attributes appendDynamic appends.
const maxDynamic = 5

// appendDynamic appends the attributes only spans carry: the resource,
// session, peer and request a message is about (at most maxDynamic).
func appendDynamic(attrs []attribute.KeyValue, params any, p *peer, server bool, requestID string) []attribute.KeyValue {
	if uri := resourceURI(params); uri != "" {
		attrs = append(attrs, keyResourceURI.String(uri))
	}
	if p.sessionID != "" {
		attrs = append(attrs, keySessionID.String(p.sessionID))
	}
	if server && p.address != "" {
		attrs = append(attrs, keyClientAddress.String(p.address))
		if p.port > 0 {
			attrs = append(attrs, keyClientPort.Int(p.port))
		}
	}
	if requestID != "" {
		attrs = append(attrs, keyRequestID.String(requestID))
	}
	return attrs
}

// isNotification reports whether method names a notification: every MCP
// notification's name starts with "notifications/".
func isNotification(method string) bool {
	return strings.HasPrefix(method, "notifications/")
}

// formatID renders a JSON-RPC id (a string or an integer) as the
// jsonrpc.request.id attribute wants it; "" for no id.
func formatID(id any) string {
	switch v := id.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// appendNetwork appends the network attributes of p; serverAddress adds
// server.address and server.port, which describe the MCP server to the
// side sending to it (CLIENT spans, client operation and session
// histograms).
func (p *peer) appendNetwork(attrs []attribute.KeyValue, serverAddress bool) []attribute.KeyValue {
	if p.transport != "" {
		attrs = append(attrs, keyNetworkTransport.String(p.transport))
	}
	if p.protocolName != "" {
		attrs = append(attrs, keyProtocolName.String(p.protocolName))
		if p.protocolVer != "" {
			attrs = append(attrs, keyProtocolVersionNP.String(p.protocolVer))
		}
	}
	if serverAddress && p.address != "" {
		attrs = append(attrs, keyServerAddress.String(p.address))
		if p.port > 0 {
			attrs = append(attrs, keyServerPort.Int(p.port))
		}
	}
	return attrs
}
