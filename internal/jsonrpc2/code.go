package jsonrpc2

import "strconv"

// A Code is the code of a JSON-RPC error object. The JSON-RPC 2.0
// specification reserves -32768 to -32000; the codes it defines are the
// constants below, and protocols built on JSON-RPC (MCP among them) define
// more in the range -32099 to -32000.
type Code int64

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     Code = -32700
	CodeInvalidRequest Code = -32600
	CodeMethodNotFound Code = -32601
	CodeInvalidParams  Code = -32602
	CodeInternalError  Code = -32603
)

// String returns the code's number and, for a code with a registered name,
// the name in parentheses: "-32601 (method not found)".
func (c Code) String() string {
	n := strconv.FormatInt(int64(c), 10)
	if name := codeNames[c]; name != "" {
		return n + " (" + name + ")"
	}
	return n
}

// codeNames names the codes of JSON-RPC 2.0 and of the Model Context
// Protocol, the one protocol this package carries. The MCP codes are
// numbers here because package mcp, which declares them, imports this one.
var codeNames = map[Code]string{
	CodeParseError:     "parse error",
	CodeInvalidRequest: "invalid request",
	CodeMethodNotFound: "method not found",
	CodeInvalidParams:  "invalid params",
	CodeInternalError:  "internal error",
	-32002:             "resource not found",
	-32042:             "URL elicitation required",
	-32020:             "header mismatch",
	-32021:             "missing required client capability",
	-32022:             "unsupported protocol version",
}
