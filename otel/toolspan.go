package otel

import (
	"context"
	"strings"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// executeToolSpanName is the name of a GenAI execute_tool span, followed by
// a space and the tool's name when it has one.
const executeToolSpanName = "execute_tool"

// namedSpan is a span that tells its name, as the spans of the
// OpenTelemetry SDK do (the API's Span does not).
type namedSpan interface {
	Name() string
}

// outerToolSpan returns the span of ctx when a tools/call sent with ctx
// should add its attributes to it rather than start a span of its own: an
// execute_tool span that is recording, unless Options.NestToolSpans is set.
// It returns nil otherwise, and for every other message.
func (in *instruments) outerToolSpan(ctx context.Context, d *direction, method string) trace.Span {
	if in.nestTools || d.server || method != mcp.MethodCallTool {
		return nil
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return nil
	}
	named, ok := span.(namedSpan)
	if !ok || !isExecuteToolName(named.Name()) {
		return nil
	}
	return span
}

// isExecuteToolName reports whether name is that of an execute_tool span:
// "execute_tool" or "execute_tool {tool}".
func isExecuteToolName(name string) bool {
	rest, ok := strings.CutPrefix(name, executeToolSpanName)
	return ok && (rest == "" || rest[0] == ' ')
}
