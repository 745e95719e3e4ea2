package otel

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
	"go.opentelemetry.io/otel/trace"
)

// DefaultMaxToolCallSize is the longest recorded tool call argument or
// result, in bytes, when Options.MaxToolCallSize is zero.
const DefaultMaxToolCallSize = 4096

// toolCallLimit returns the byte limit of recorded tool call content, or 0
// when it is not recorded.
func toolCallLimit(o *Options) int {
	switch {
	case !o.RecordToolCalls:
		return 0
	case o.MaxToolCallSize > 0:
		return o.MaxToolCallSize
	}
	return DefaultMaxToolCallSize
}

// recordArguments sets gen_ai.tool.call.arguments on the span of a
// tools/call, when tool calls are recorded and the span records.
func (op *operation) recordArguments(limit int) {
	p, ok := op.params.(*mcp.CallToolParams)
	if !ok || p == nil || limit == 0 || op.span == nil || p.Arguments == nil {
		return
	}
	if text, ok := toolCallText(p.Arguments, limit); ok {
		op.span.SetAttributes(keyToolCallArguments.String(text))
	}
}

// recordResult sets gen_ai.tool.call.result on the span of a tools/call
// that returned a result (successful, or with isError), when tool calls are
// recorded.
func recordResult(span trace.Span, res any, limit int) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil || limit == 0 || r.ResultType == "input_required" {
		return
	}
	// What the tool returned, without the protocol's _meta and resultType.
	v := toolResult{Content: r.Content, StructuredContent: r.StructuredContent, IsError: r.IsError}
	if text, ok := toolCallText(&v, limit); ok {
		span.SetAttributes(keyToolCallResult.String(text))
	}
}

// toolResult is the part of a CallToolResult that gen_ai.tool.call.result
// records.
type toolResult struct {
	Content           []*mcp.Content `json:"content"`
	StructuredContent any            `json:"structuredContent,omitzero"`
	IsError           bool           `json:"isError,omitzero"`
}

// toolCallText renders v as JSON text of at most limit bytes: arguments
// received are their bytes as sent; anything else is encoded. Text over the
// limit is cut at a character boundary (and is then no longer valid JSON).
// ok is false when v cannot be encoded.
func toolCallText(v any, limit int) (text string, ok bool) {
	var b []byte
	if raw, isRaw := v.(json.RawMessage); isRaw {
		b = raw
	} else {
		var err error
		if b, err = strictjson.Marshal(v); err != nil {
			return "", false
		}
	}
	return truncateUTF8(b, limit), true
}

// truncateUTF8 returns b as a string of at most limit bytes, cut before a
// character that would not fit whole.
func truncateUTF8(b []byte, limit int) string {
	if len(b) <= limit {
		return string(b)
	}
	n := limit
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n])
}
