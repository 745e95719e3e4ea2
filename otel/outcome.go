package otel

import (
	"context"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/gomcp/sdk/mcp"
)

// classify returns the error.type of an outcome ("" for success), the
// JSON-RPC error code when there is one (for rpc.response.status_code),
// and the span status description.
//
// A JSON-RPC error is typed by its code, as a string ("-32602"); a tool
// result with isError by "tool_error". An error without a code is, on the
// handling side (server), answered as an internal error, so it is typed
// "-32603"; on the sending side it never reached the peer, and is typed
// "cancelled", "timeout" or "_OTHER".
func classify(res any, err error, server bool) (errType, code, desc string) {
	if err != nil {
		if mcp.IsInputRequired(err) {
			return "", "", "" // answered with an input-required result
		}
		var je *mcp.JSONRPCError
		switch {
		case errors.As(err, &je):
			code = strconv.FormatInt(int64(je.Code), 10)
			return code, code, je.Message
		case errors.Is(err, context.Canceled):
			return errorTypeCancelled, "", err.Error()
		case errors.Is(err, context.DeadlineExceeded):
			return errorTypeTimeout, "", err.Error()
		case server:
			code = strconv.FormatInt(int64(mcp.CodeInternalError), 10)
			return code, code, err.Error()
		}
		return errorTypeOther, "", err.Error()
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
		return errorTypeToolError, "", toolErrorText(r)
	}
	return "", "", ""
}

// toolErrorText is the text of a failed tool result, for the span status:
// its first text content, cut to a reasonable length.
func toolErrorText(r *mcp.CallToolResult) string {
	for _, c := range r.Content {
		if c != nil && c.Type == mcp.ContentTypeText {
			limit := 256
			if len(c.Text) <= limit {
				return c.Text
			}
			for limit > 0 && !utf8.RuneStart(c.Text[limit]) {
				limit--
			}
			return c.Text[:limit]
		}
	}
	return ""
}
