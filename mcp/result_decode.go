package mcp

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Direct result decoding, the client's side of result_encode.go: a
// tools/call result made of text blocks, the most common result, is read
// with a pooled token reader instead of the reflective decoder. The result
// of a response was validated with the whole message (syntax, UTF-8, no
// duplicate names, bounded depth), as for trusted params. Anything else
// (structured content, input requests, a block that is not plain
// text, escaped member names, members of an unexpected type) makes the
// fast path give up, and the general decoder reads the result as before.

// decodeResult decodes the result of a response into result, once.
func decodeResult(raw []byte, result any) error {
	if err := strictjson.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("mcp: decoding result: %w", err)
	}
	return nil
}

// decodeDirect decodes data into r, which must be zero, and reports
// whether it could; when it could not, r is left zero.
func (r *CallToolResult) decodeDirect(data []byte) bool {
	pd := getTrustedReader(data)
	ok := r.readDirect(&pd.dec, data)
	putTrustedReader(pd)
	if !ok {
		*r = CallToolResult{}
	}
	return ok
}

// readDirect reads the members of a plain result: content, isError and
// resultType. Unknown members are skipped, as the general decoder does.
func (r *CallToolResult) readDirect(d *jsontext.Decoder, data []byte) bool {
	if d.PeekKind() != '{' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	for d.PeekKind() != '}' {
		name := trustedName(d)
		if name == nil {
			return false
		}
		switch string(name) {
		case "content":
			content, ok := readTextBlocks(d, data)
			if !ok {
				return false
			}
			r.Content = content
		case "isError":
			tok, err := d.ReadToken()
			if err != nil || (tok.Kind() != 't' && tok.Kind() != 'f') {
				return false
			}
			r.IsError = tok.Bool()
		case "resultType":
			s, ok := readString(d, data)
			if !ok {
				return false
			}
			r.ResultType = s
		case "_meta":
			// Every 2026-07-28 result has one (the server's identity):
			// decoded as the general decoder does, with Meta's own
			// decoder.
			v, ok := trustedRaw(d, data)
			if !ok || v.Kind() != '{' || r.Meta.UnmarshalJSON(v) != nil {
				return false
			}
		case "structuredContent", "inputRequests", "requestState":
			return false
		default:
			if d.SkipValue() != nil {
				return false
			}
		}
	}
	_, err := d.ReadToken()
	return err == nil
}

// readTextBlocks reads an array of text content blocks, each exactly
// {"type":"text","text":...} in either order, into one allocation of
// blocks.
func readTextBlocks(d *jsontext.Decoder, data []byte) ([]*Content, bool) {
	if d.PeekKind() != '[' {
		return nil, false
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, false
	}
	var small [4]string
	texts := small[:0]
	for d.PeekKind() != ']' {
		text, ok := readTextBlock(d, data)
		if !ok {
			return nil, false
		}
		texts = append(texts, text)
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, false
	}
	blocks := make([]Content, len(texts))
	content := make([]*Content, len(texts))
	for i, text := range texts {
		blocks[i] = Content{Type: ContentTypeText, Text: text}
		content[i] = &blocks[i]
	}
	return content, true
}

// readTextBlock reads one {"type":"text","text":...} object and returns
// its text.
func readTextBlock(d *jsontext.Decoder, data []byte) (string, bool) {
	if d.PeekKind() != '{' {
		return "", false
	}
	if _, err := d.ReadToken(); err != nil {
		return "", false
	}
	var text string
	var sawType, sawText bool
	for d.PeekKind() != '}' {
		name := trustedName(d)
		if name == nil {
			return "", false
		}
		switch string(name) {
		case "type":
			v, ok := trustedRaw(d, data)
			if !ok || string(v) != `"text"` {
				return "", false
			}
			sawType = true
		case "text":
			s, ok := readString(d, data)
			if !ok {
				return "", false
			}
			text, sawText = s, true
		default:
			return "", false // annotations, _meta, or a member the general decoder judges
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return "", false
	}
	return text, sawType && sawText
}

// readString reads a JSON string value.
func readString(d *jsontext.Decoder, data []byte) (string, bool) {
	v, ok := trustedRaw(d, data)
	if !ok || v.Kind() != '"' {
		return "", false
	}
	s, err := unquoteName(v)
	return s, err == nil
}
