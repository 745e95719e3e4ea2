package otel

import "go.opentelemetry.io/otel/attribute"

// Attribute names of the OpenTelemetry semantic conventions for MCP. The
// generated semconv packages stopped carrying them when the GenAI
// conventions moved to their own repository, so they are spelled here.
const (
	keyMethodName        = attribute.Key("mcp.method.name")
	keyProtocolVersion   = attribute.Key("mcp.protocol.version")
	keyResourceURI       = attribute.Key("mcp.resource.uri")
	keySessionID         = attribute.Key("mcp.session.id")
	keyToolName          = attribute.Key("gen_ai.tool.name")
	keyPromptName        = attribute.Key("gen_ai.prompt.name")
	keyOperationName     = attribute.Key("gen_ai.operation.name")
	keyRequestID         = attribute.Key("jsonrpc.request.id")
	keyErrorType         = attribute.Key("error.type")
	keyStatusCode        = attribute.Key("rpc.response.status_code")
	keyNetworkTransport  = attribute.Key("network.transport")
	keyProtocolName      = attribute.Key("network.protocol.name")
	keyProtocolVersionNP = attribute.Key("network.protocol.version")
	keyServerAddress     = attribute.Key("server.address")
	keyServerPort        = attribute.Key("server.port")
	keyClientAddress     = attribute.Key("client.address")
	keyClientPort        = attribute.Key("client.port")
	// Opt-in (Options.RecordToolCalls).
	keyToolCallArguments = attribute.Key("gen_ai.tool.call.arguments")
	keyToolCallResult    = attribute.Key("gen_ai.tool.call.result")
)

// Values of the attributes above.
const (
	operationExecuteTool = "execute_tool"
	errorTypeToolError   = "tool_error"
	errorTypeOther       = "_OTHER"
	errorTypeCancelled   = "cancelled"
	errorTypeTimeout     = "timeout"
)

// Names of the four histograms of the conventions.
const (
	metricClientOperation = "mcp.client.operation.duration"
	metricServerOperation = "mcp.server.operation.duration"
	metricClientSession   = "mcp.client.session.duration"
	metricServerSession   = "mcp.server.session.duration"
)

// durationBuckets are the explicit bucket boundaries, in seconds, the
// conventions advise for every MCP duration histogram.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// instrumentationName names the tracer and the meter.
const instrumentationName = "github.com/gomcp/sdk/otel"
