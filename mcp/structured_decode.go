package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

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
