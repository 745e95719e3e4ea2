package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// Direct result decoding, the client's side of result_encode.go: a
// tools/call result made of text blocks, the most common result, with or
// without an object of structured content (kept as the bytes received), is
// read directly instead of by the reflective decoder. The result
// of a response was validated with the whole message (syntax, UTF-8, no
// duplicate names, bounded depth), as for trusted params. Anything else
// (structured content that is not an object, input requests, a block that
// is not plain text, escaped member names, members of an unexpected type)
// makes the fast path give up, and the general decoder reads the result as
// before.

// A validatingDecoder decodes itself directly from bytes not validated
// before, checking them in the same pass (a validating
// strictjson.Scanner). decodeValidating reports whether it did; when it
// did not, the value is left zero for the general decoder.
type validatingDecoder interface {
	decodeValidating(data []byte) bool
}

// decodeResult decodes the result of a response into result, once: in a
// single validating pass when the result has a direct decoding, by the
// strict decoder otherwise (and for anything the pass is not sure of,
// which then judges it with its errors).
func decodeResult(raw []byte, result any) error {
	if d, ok := result.(validatingDecoder); ok && d.decodeValidating(raw) {
		return nil
	}
	if err := strictjson.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("mcp: decoding result: %w", err)
	}
	return nil
}

// decodeDirect decodes data, validated before, into r, which must be
// zero, and reports whether it could; when it could not, r is left zero.
func (r *CallToolResult) decodeDirect(data []byte) bool {
	if !r.readDirect(data, true) {
		*r = CallToolResult{}
		return false
	}
	return true
}

// decodeValidating is decodeDirect for data not validated before: the
// Scanner that reads the members checks each value as it goes, and the
// object whole, so the values read within them are validated.
func (r *CallToolResult) decodeValidating(data []byte) bool {
	*r = CallToolResult{}
	if !r.readDirect(data, false) {
		*r = CallToolResult{}
		return false
	}
	return true
}

// readDirect reads the members of a plain result: content, isError and
// resultType. Unknown members are skipped, as the general decoder does.
// It is read without a token reader: by a trusted strictjson.Scanner when
// the result was validated with its message, by a validating one
// otherwise; the values of its members, validated either way, are read
// by trusted Scanners.
func (r *CallToolResult) readDirect(data []byte, trusted bool) bool {
	o, ok := strictjson.ScanObject(data, trusted)
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
		case "structuredContent":
			// Kept as the bytes received, as the general decoder keeps
			// them; a JSON object is all a tool's output schema allows
			// (2025-06-18), anything else goes to the general decoder.
			if v[0] != '{' {
				return false
			}
			r.StructuredContent = json.RawMessage(bytes.Clone(v))
		case "inputRequests", "requestState":
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

// ErrNoStructuredContent is the error DecodeStructured returns, wrapped,
// for a tool result without structured content.
var ErrNoStructuredContent = errors.New("mcp: the tool result has no structured content")

// DecodeStructured decodes the structured content of a tool's result into
// a value of type Out, typically the output type of a tool made with
// NewStructuredTool:
//
//	res, err := cs.CallTool(ctx, "forecast", args, nil)
//	if err != nil {
//		return err
//	}
//	f, err := mcp.DecodeStructured[forecast](res)
//
// A result without structured content is an error wrapping
// ErrNoStructuredContent: the tool failed (its IsError result's text is
// quoted in the error) or returns no structured output. Content that does
// not decode into Out is an error naming Out. Decoding is encoding/json's,
// as for any JSON a program reads into its own types.
func DecodeStructured[Out any](res *CallToolResult) (Out, error) {
	var out Out
	if res == nil {
		return out, fmt.Errorf("%w: nil result", ErrNoStructuredContent)
	}
	var raw []byte
	switch sc := res.StructuredContent.(type) {
	case nil:
		if res.IsError {
			return out, fmt.Errorf("%w: the tool failed: %s", ErrNoStructuredContent, failureText(res))
		}
		return out, ErrNoStructuredContent
	case json.RawMessage:
		raw = sc
	case Out:
		return sc, nil
	default:
		// Set by Go code rather than decoded: go through its JSON.
		b, err := json.Marshal(sc)
		if err != nil {
			return out, fmt.Errorf("mcp: encoding structured content: %w", err)
		}
		raw = b
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("mcp: decoding structured content into %T: %w", out, err)
	}
	return out, nil
}

// failureText joins the text blocks of a result, for an error message.
func failureText(res *CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if c != nil && c.Type == ContentTypeText {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, " ")
}
