package mcp

import (
	"fmt"

	"github.com/gomcp/sdk/strictjson"
)

// Direct result decoding, the client's side of result_encode.go: a
// tools/call result made of text blocks, the most common result, is read
// directly instead of by the reflective decoder. The result
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
	if !r.readDirect(data) {
		*r = CallToolResult{}
		return false
	}
	return true
}

// readDirect reads the members of a plain result: content, isError and
// resultType. Unknown members are skipped, as the general decoder does.
// The result was validated with its message: it is read without a token
// reader (a trusted strictjson.Scanner).
func (r *CallToolResult) readDirect(data []byte) bool {
	o, ok := strictjson.ScanObject(data, true)
	if !ok {
		return false
	}
	for {
		name, v, more := o.Member()
		if !more {
			return o.Complete()
		}
		switch string(name) {
		case "content":
			content, ok := readTextBlocks(v)
			if !ok {
				return false
			}
			r.Content = content
		case "isError":
			switch string(v) {
			case "true":
				r.IsError = true
			case "false":
				r.IsError = false
			default:
				return false
			}
		case "resultType":
			s, ok := readString(v)
			if !ok {
				return false
			}
			r.ResultType = s
		case "_meta":
			// Every 2026-07-28 result has one (the server's identity):
			// decoded as the general decoder does, with Meta's own
			// decoder.
			if v[0] != '{' || r.Meta.UnmarshalJSON(v) != nil {
				return false
			}
		case "structuredContent", "inputRequests", "requestState":
			return false
		}
	}
}

// readTextBlocks reads an array of text content blocks, each exactly
// {"type":"text","text":...} in either order, into one allocation of
// blocks.
func readTextBlocks(data []byte) ([]*Content, bool) {
	a, ok := strictjson.ScanArray(data, true)
	if !ok {
		return nil, false
	}
	var small [4]string
	texts := small[:0]
	for {
		v, more := a.Element()
		if !more {
			break
		}
		text, ok := readTextBlock(v)
		if !ok {
			return nil, false
		}
		texts = append(texts, text)
	}
	if !a.Complete() {
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
func readTextBlock(data []byte) (string, bool) {
	o, ok := strictjson.ScanObject(data, true)
	if !ok {
		return "", false
	}
	var text string
	var sawType, sawText bool
	for {
		name, v, more := o.Member()
		if !more {
			return text, o.Complete() && sawType && sawText
		}
		switch string(name) {
		case "type":
			if string(v) != `"text"` {
				return "", false
			}
			sawType = true
		case "text":
			s, ok := readString(v)
			if !ok {
				return "", false
			}
			text, sawText = s, true
		default:
			return "", false // annotations, _meta, or a member the general decoder judges
		}
	}
}

// readString reads a JSON string value.
func readString(v []byte) (string, bool) {
	if v[0] != '"' {
		return "", false
	}
	s, err := unquoteName(v)
	return s, err == nil
}
