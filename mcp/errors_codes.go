package mcp

import (
	"strconv"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// JSON-RPC error codes used by MCP, and the data that accompanies some of
// them.
const (
	// CodeParseError reports that the message was not valid JSON (JSON-RPC).
	CodeParseError = -32700
	// CodeInvalidRequest reports that the message was not a valid request
	// object (JSON-RPC).
	CodeInvalidRequest = -32600
	// CodeMethodNotFound reports an unknown or unavailable method (JSON-RPC).
	CodeMethodNotFound = -32601
	// CodeInvalidParams reports invalid method parameters (JSON-RPC). Since
	// 2026-07-28 it also reports an unknown resource.
	CodeInvalidParams = -32602
	// CodeInternalError reports an internal failure of the receiver
	// (JSON-RPC).
	CodeInternalError = -32603

	// CodeResourceNotFound reports that a resource does not exist
	// (2024-11-05 to 2025-11-25). Version 2026-07-28 uses [CodeInvalidParams]
	// instead but clients should still accept this code.
	CodeResourceNotFound = -32002
	// CodeURLElicitationRequired reports that a request needs a URL-mode
	// elicitation first; its data is [URLElicitationRequiredData]
	// (2025-11-25 only).
	CodeURLElicitationRequired = -32042

	// CodeHeaderMismatch reports HTTP headers that are missing, malformed or
	// disagree with the request body (2026-07-28).
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability reports that a request needs a
	// client capability the client did not declare; its data is
	// [MissingCapabilitiesData] (2026-07-28).
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion reports a protocol version the server
	// does not support; its data is [UnsupportedProtocolVersionData]
	// (2026-07-28).
	CodeUnsupportedProtocolVersion = -32022
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

// An ErrorCode is the code of a JSON-RPC error response: one of the Code
// constants above, which the JSON-RPC and MCP specifications define, or a
// code of the application's own. The constants are untyped so that they
// compare with both an ErrorCode and the Code field of a [JSONRPCError].
type ErrorCode int64

// CodeOf returns the error code that reports err to the peer, as the SDK
// sends it: the code of the *JSONRPCError err wraps (an error a peer sent
// arrives as one), the code for a malformed message, or
// [CodeInternalError] for any other error. It returns 0 for nil.
func CodeOf(err error) ErrorCode {
	return ErrorCode(jsonrpc2.CodeOf(err))
}

// String returns the code's number and, for the codes the specifications
// define, its name.
func (c ErrorCode) String() string {
	n := strconv.FormatInt(int64(c), 10)
	if name := errorCodeNames[c]; name != "" {
		return n + " (" + name + ")"
	}
	return n
}

var errorCodeNames = map[ErrorCode]string{
	CodeParseError:                      "parse error",
	CodeInvalidRequest:                  "invalid request",
	CodeMethodNotFound:                  "method not found",
	CodeInvalidParams:                   "invalid params",
	CodeInternalError:                   "internal error",
	CodeResourceNotFound:                "resource not found",
	CodeURLElicitationRequired:          "URL elicitation required",
	CodeHeaderMismatch:                  "header mismatch",
	CodeMissingRequiredClientCapability: "missing required client capability",
	CodeUnsupportedProtocolVersion:      "unsupported protocol version",
}
