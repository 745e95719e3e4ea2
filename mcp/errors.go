package mcp

import (
	"errors"
	"fmt"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Sentinel errors that callers can test with errors.Is.
var (
	// ErrNotSupported reports a request the peer did not declare a
	// capability for; the SDK refuses to send it.
	ErrNotSupported = errors.New("mcp: not supported by the peer")
	// ErrUnsupportedVersion reports that client and server share no
	// protocol version.
	ErrUnsupportedVersion = errors.New("mcp: no common protocol version")
)

// newError returns a *JSONRPCError with the code and formatted message.
func newError(code ErrorCode, format string, args ...any) *JSONRPCError {
	return &JSONRPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// newErrorWithData returns a *JSONRPCError whose data member is data
// encoded as JSON.
func newErrorWithData(code ErrorCode, message string, data any) *JSONRPCError {
	raw, err := strictjson.Marshal(data)
	if err != nil {
		return &JSONRPCError{Code: code, Message: message}
	}
	return &JSONRPCError{Code: code, Message: message, Data: raw}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// JSON-RPC error codes used by MCP, and the data that accompanies some of
// them.
const (
	// CodeParseError reports that the message was not valid JSON (JSON-RPC).
	CodeParseError ErrorCode = -32700
	// CodeInvalidRequest reports that the message was not a valid request
	// object (JSON-RPC).
	CodeInvalidRequest ErrorCode = -32600
	// CodeMethodNotFound reports an unknown or unavailable method (JSON-RPC).
	CodeMethodNotFound ErrorCode = -32601
	// CodeInvalidParams reports invalid method parameters (JSON-RPC). Since
	// 2026-07-28 it also reports an unknown resource.
	CodeInvalidParams ErrorCode = -32602
	// CodeInternalError reports an internal failure of the receiver
	// (JSON-RPC).
	CodeInternalError ErrorCode = -32603

	// CodeResourceNotFound reports that a resource does not exist
	// (2024-11-05 to 2025-11-25). Version 2026-07-28 uses [CodeInvalidParams]
	// instead but clients should still accept this code.
	CodeResourceNotFound ErrorCode = -32002
	// CodeURLElicitationRequired reports that a request needs a URL-mode
	// elicitation first; its data is [URLElicitationRequiredData]
	// (2025-11-25 only).
	CodeURLElicitationRequired ErrorCode = -32042

	// CodeHeaderMismatch reports HTTP headers that are missing, malformed or
	// disagree with the request body (2026-07-28).
	CodeHeaderMismatch ErrorCode = -32020
	// CodeMissingRequiredClientCapability reports that a request needs a
	// client capability the client did not declare; its data is
	// [MissingCapabilitiesData] (2026-07-28).
	CodeMissingRequiredClientCapability ErrorCode = -32021
	// CodeUnsupportedProtocolVersion reports a protocol version the server
	// does not support; its data is [UnsupportedProtocolVersionData]
	// (2026-07-28).
	CodeUnsupportedProtocolVersion ErrorCode = -32022
)

// UnsupportedProtocolVersionData is the data of a
// [CodeUnsupportedProtocolVersion] error (2026-07-28).
type UnsupportedProtocolVersionData struct {
	// Requested is the protocol version the client asked for.
	Requested string `json:"requested"`
	// Supported lists the versions the server supports; the client should
	// retry with one of them.
	Supported []string `json:"supported"`
}

// MissingCapabilitiesData is the data of a
// [CodeMissingRequiredClientCapability] error (2026-07-28).
type MissingCapabilitiesData struct {
	// RequiredCapabilities are the client capabilities the request needs.
	RequiredCapabilities *ClientCapabilities `json:"requiredCapabilities"`
}

// URLElicitationRequiredData is the data of a [CodeURLElicitationRequired]
// error (2025-11-25).
type URLElicitationRequiredData struct {
	// Elicitations are the URL-mode elicitations the client must complete
	// before retrying.
	Elicitations []*ElicitParams `json:"elicitations"`
}

// An ErrorCode is the code of a JSON-RPC error response, the type of the
// Code field of a [JSONRPCError]: one of the Code constants above, which the
// JSON-RPC and MCP specifications define, or a code of the application's
// own. Its String method gives the number and, for the constants above, the
// name: "-32602 (invalid params)".
type ErrorCode = jsonrpc2.Code

// CodeOf returns the error code that reports err to the peer, as the SDK
// sends it: the code of the *JSONRPCError err wraps (an error a peer sent
// arrives as one), the code for a malformed message, or
// [CodeInternalError] for any other error. It returns 0 for nil.
func CodeOf(err error) ErrorCode {
	return jsonrpc2.CodeOf(err)
}
