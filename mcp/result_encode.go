package mcp

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Direct result encoding: the most common result, a tools/call result of
// text blocks, is written as bytes without the reflective encoder. The
// bytes are exactly those strictjson.Marshal writes; any result with a
// member the fast path does not write goes to strictjson as before.

// encodeResult returns res encoded as a json.RawMessage when it has a
// direct encoding, and res unchanged otherwise: what a session's handler
// gives its transport, which encodes the response (jsonrpc2.NewResponse
// keeps a json.RawMessage as it is).
func encodeResult(res any, err error) (any, error) {
	if r, ok := res.(*CallToolResult); ok && err == nil && r != nil {
		if b, ok := appendCallToolResult(nil, r); ok {
			return json.RawMessage(b), nil
		}
	}
	return res, err
}

// appendCallToolResult appends the encoding of r, and reports false (and
// appends nothing useful) when r needs the general encoder: it has _meta,
// structured content, input requests or request state, or a block that is
// not plain text.
func appendCallToolResult(dst []byte, r *CallToolResult) ([]byte, bool) {
	if !r.Meta.IsZero() || r.StructuredContent != nil || len(r.InputRequests) != 0 || r.RequestState != "" {
		return dst, false
	}
	size := 32 + len(r.ResultType)
	for _, c := range r.Content {
		if c == nil || c.Type != ContentTypeText || c.Annotations != nil || !c.Meta.IsZero() {
			return dst, false
		}
		size += len(c.Text) + 28
	}
	if dst == nil {
		dst = make([]byte, 0, size)
	}
	var err error
	dst = append(dst, '{')
	if r.ResultType != "" {
		dst = append(dst, `"resultType":`...)
		if dst, err = jsontext.AppendQuote(dst, r.ResultType); err != nil {
			return dst, false
		}
		dst = append(dst, ',')
	}
	dst = append(dst, `"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		if dst, err = jsontext.AppendQuote(dst, c.Text); err != nil {
			return dst, false
		}
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}'), true
}

// newResponse is jsonrpc2.NewResponse with direct result encoding, without
// boxing the encoded result.
func newResponse(id jsonrpc2.ID, res any, err error) *jsonrpc2.Response {
	if r, ok := res.(*CallToolResult); ok && err == nil && r != nil {
		if b, ok := appendCallToolResult(nil, r); ok {
			return &jsonrpc2.Response{ID: id, Result: b}
		}
	}
	return jsonrpc2.NewResponse(id, res, err)
}
