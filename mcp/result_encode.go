package mcp

import (
	"encoding/base64"
	"encoding/json"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Direct result encoding: the most common result, a tools/call result of
// text blocks (with the structured content of a structured tool, which
// NewStructuredTool has encoded already), and the result of resources/read
// (where large binary contents are base64-encoded in place) are written
// as bytes without the reflective encoder. The
// bytes are exactly those strictjson.Marshal writes; any result with a
// member the fast path does not write goes to strictjson as before.

// encodeResult returns res encoded as a json.RawMessage when it has a
// direct encoding, and res unchanged otherwise: what a session's handler
// gives its transport, which encodes the response (jsonrpc2.NewResponse
// keeps a json.RawMessage as it is).
func encodeResult(res any, err error) (any, error) {
	if err == nil {
		if b, ok := appendDirect(nil, res); ok {
			return json.RawMessage(b), nil
		}
	}
	return res, err
}

// directSize returns the length of res's direct encoding, or a little
// more, and false when res has no direct encoding.
func directSize(res any) (int, bool) {
	switch r := res.(type) {
	case *CallToolResult:
		if r == nil {
			return 0, false
		}
		size := 32 + len(r.ResultType)
		if raw, ok := r.StructuredContent.(json.RawMessage); ok {
			size += len(raw) + 22
		}
		for _, c := range r.Content {
			if c != nil {
				// Room for escapes: a line break or a quote takes two
				// bytes, and markdown has a few of them.
				size += len(c.Text) + len(c.Text)/8 + 28
			}
		}
		return size, true
	case *ReadResourceResult:
		if r == nil {
			return 0, false
		}
		size := 64 + len(r.ResultType) + len(r.CacheScope)
		for _, c := range r.Contents {
			if c != nil {
				size += 32 + len(c.URI) + len(c.MIMEType) + len(c.Text) + base64.StdEncoding.EncodedLen(len(c.Blob))
			}
		}
		return size, true
	}
	return 0, false
}

// appendDirect appends the direct encoding of res to dst, and reports
// false when res has none (dst is then to be discarded).
func appendDirect(dst []byte, res any) ([]byte, bool) {
	size, ok := directSize(res)
	if !ok {
		return dst, false
	}
	if dst == nil {
		dst = make([]byte, 0, size)
	}
	switch r := res.(type) {
	case *CallToolResult:
		return appendCallToolResult(dst, r)
	case *ReadResourceResult:
		return appendReadResourceResult(dst, r)
	}
	return dst, false
}

// appendCallToolResult appends the encoding of r, and reports false (and
// appends nothing useful) when r needs the general encoder: it has _meta,
// structured content that is not already encoded (a json.RawMessage, as
// NewStructuredTool makes it), input requests or request state, or a
// block that is not plain text.
func appendCallToolResult(dst []byte, r *CallToolResult) ([]byte, bool) {
	if !r.Meta.IsZero() || len(r.InputRequests) != 0 || r.RequestState != "" {
		return dst, false
	}
	structured, isRaw := r.StructuredContent.(json.RawMessage)
	if r.StructuredContent != nil && (!isRaw || structured == nil) {
		return dst, false
	}
	for _, c := range r.Content {
		if c == nil || c.Type != ContentTypeText || c.Annotations != nil || !c.Meta.IsZero() {
			return dst, false
		}
	}
	if dst == nil {
		size, _ := directSize(r)
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
	if structured != nil {
		// Formatted as the general encoder writes a json.RawMessage:
		// checked, and compacted.
		dst = append(dst, `,"structuredContent":`...)
		if dst, err = jsontext.AppendFormat(dst, structured, jsontext.EscapeForHTML(false)); err != nil {
			return dst, false
		}
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}'), true
}

// newResponse is jsonrpc2.NewResponse with direct result encoding, without
// boxing the encoded result.
func newResponse(id jsonrpc2.ID, res any, err error) *jsonrpc2.Response {
	if err == nil {
		if b, ok := appendDirect(nil, res); ok {
			return &jsonrpc2.Response{ID: id, Result: b}
		}
	}
	return jsonrpc2.NewResponse(id, res, err)
}

// appendReadResourceResult appends the encoding of r, and reports false
// when r needs the general encoder: it has _meta, input requests or
// request state, no contents array, or contents with _meta. Binary
// contents are base64-encoded straight into dst.
func appendReadResourceResult(dst []byte, r *ReadResourceResult) ([]byte, bool) {
	if !r.Meta.IsZero() || len(r.InputRequests) != 0 || r.RequestState != "" || r.Contents == nil {
		return dst, false
	}
	for _, c := range r.Contents {
		if c == nil || !c.Meta.IsZero() {
			return dst, false
		}
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
	dst = append(dst, `"contents":[`...)
	for i, c := range r.Contents {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendResourceContents(dst, c); err != nil {
			return dst, false
		}
	}
	dst = append(dst, ']')
	if r.TTLMs != nil {
		dst = strconv.AppendInt(append(dst, `,"ttlMs":`...), *r.TTLMs, 10)
	}
	if r.CacheScope != "" {
		dst = append(dst, `,"cacheScope":`...)
		if dst, err = jsontext.AppendQuote(dst, r.CacheScope); err != nil {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendResourceContents appends c, which has no _meta, as
// ResourceContents.MarshalJSON writes it.
func appendResourceContents(dst []byte, c *ResourceContents) ([]byte, error) {
	var err error
	dst = append(dst, `{"uri":`...)
	if dst, err = jsontext.AppendQuote(dst, c.URI); err != nil {
		return dst, err
	}
	if c.MIMEType != "" {
		dst = append(dst, `,"mimeType":`...)
		if dst, err = jsontext.AppendQuote(dst, c.MIMEType); err != nil {
			return dst, err
		}
	}
	if c.Blob != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Blob)
		return append(dst, `"}`...), nil
	}
	dst = append(dst, `,"text":`...)
	if dst, err = jsontext.AppendQuote(dst, c.Text); err != nil {
		return dst, err
	}
	return append(dst, '}'), nil
}
