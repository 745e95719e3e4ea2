package events

import (
	"errors"
	"fmt"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// Error codes of the extension, as SEP-3415 numbers them. The SEP calls
// them provisional, and the design sketch, the conformance suite and the
// deployed ChatGPT profile use -32011 to -32015 instead (SketchCodes):
// a server sends these, a client accepts both (KindOf). Should the final
// numbering differ, these constants are the one place to change.
const (
	// CodeNotFound: an unknown event type (data.kind "event") or webhook
	// subscription (data.kind "subscription").
	CodeNotFound mcp.ErrorCode = -32023
	// CodeForbidden: the principal may not subscribe, or lost access.
	CodeForbidden mcp.ErrorCode = -32024
	// CodeResourceExhausted: a quota was reached (data.limit).
	CodeResourceExhausted mcp.ErrorCode = -32025
	// CodeUnsupported: the type does not offer what was asked, such as a
	// delivery mode (data.feature, data.value).
	CodeUnsupported mcp.ErrorCode = -32026
	// CodeCallbackEndpointError: a webhook endpoint failed verification
	// or could not be reached (data.reason).
	CodeCallbackEndpointError mcp.ErrorCode = -32027
)

// A Kind names an error of the extension independently of its number.
type Kind string

// The kinds of error of the extension.
const (
	KindNotFound              Kind = "NotFound"
	KindForbidden             Kind = "Forbidden"
	KindResourceExhausted     Kind = "ResourceExhausted"
	KindUnsupported           Kind = "Unsupported"
	KindCallbackEndpointError Kind = "CallbackEndpointError"
	KindInvalidParams         Kind = "InvalidParams"
)

// SketchCodes are the codes of the design sketch, the conformance suite
// and ChatGPT, which a client accepts beside the SEP's.
var SketchCodes = map[mcp.ErrorCode]Kind{
	-32011: KindNotFound,
	-32012: KindForbidden,
	-32013: KindResourceExhausted,
	-32014: KindUnsupported,
	-32015: KindCallbackEndpointError,
}

// kindOfCode returns the kind of an error code in either numbering, or "".
func kindOfCode(code mcp.ErrorCode) Kind {
	switch code {
	case CodeNotFound:
		return KindNotFound
	case CodeForbidden:
		return KindForbidden
	case CodeResourceExhausted:
		return KindResourceExhausted
	case CodeUnsupported:
		return KindUnsupported
	case CodeCallbackEndpointError:
		return KindCallbackEndpointError
	case mcp.CodeInvalidParams:
		return KindInvalidParams
	}
	return SketchCodes[code]
}

// KindOf returns the kind of the extension's error that err is or wraps,
// in the SEP's numbering or the sketch's, or "" if it is none.
func KindOf(err error) Kind {
	var rpc *mcp.JSONRPCError
	if !errors.As(err, &rpc) {
		return ""
	}
	return kindOfCode(rpc.Code)
}

// A TerminatedError is the error a client's PollLoop or Stream returns
// when the server ended the subscription: a JSON-RPC error of a poll or
// stream request, or a NotificationTerminated.
type TerminatedError struct {
	// Kind is the error's kind, "" for a code the extension does not
	// define.
	Kind Kind
	// Code, Message and Data are the error object as the server sent it.
	Code    int64
	Message string
	Data    any
}

var _ error = (*TerminatedError)(nil)

// Error describes the termination.
func (e *TerminatedError) Error() string {
	return fmt.Sprintf("events: subscription terminated: %s (code %d)", e.Message, e.Code)
}

// Retryable reports whether the client should rediscover the types and
// subscribe again (NotFound, Unsupported) rather than stop (Forbidden and
// the rest).
func (e *TerminatedError) Retryable() bool {
	return e.Kind == KindNotFound || e.Kind == KindUnsupported
}

// newError returns a JSON-RPC error with data.
func newError(code mcp.ErrorCode, message string, data any) *mcp.JSONRPCError {
	e := &mcp.JSONRPCError{Code: code, Message: message}
	if data != nil {
		if b, err := strictjson.Marshal(data); err == nil {
			e.Data = b
		}
	}
	return e
}

// errEventNotFound is the error for an unknown event type.
func errEventNotFound(name string) *mcp.JSONRPCError {
	return newError(CodeNotFound, "NotFound: unknown event type "+fmt.Sprintf("%q", name), map[string]string{"kind": "event", "name": name})
}

// errDeliveryUnsupported is the error for a delivery mode a type does not
// offer.
func errDeliveryUnsupported(name, mode string) *mcp.JSONRPCError {
	return newError(CodeUnsupported, fmt.Sprintf("Unsupported: event type %q does not offer %s delivery", name, mode),
		map[string]string{"feature": "deliveryMode", "value": mode})
}

// errInvalidParams is a -32602 error.
func errInvalidParams(format string, args ...any) *mcp.JSONRPCError {
	return newError(mcp.CodeInvalidParams, fmt.Sprintf(format, args...), nil)
}

// errorObject returns the nested error object of a notification for err.
func errorObject(err error) *ErrorObject {
	var rpc *mcp.JSONRPCError
	if errors.As(err, &rpc) {
		o := &ErrorObject{Code: int64(rpc.Code), Message: rpc.Message}
		if len(rpc.Data) > 0 {
			var data any
			if strictjson.Unmarshal(rpc.Data, &data) == nil {
				o.Data = data
			}
		}
		return o
	}
	return &ErrorObject{Code: int64(mcp.CodeInternalError), Message: err.Error()}
}

// terminated converts an error object a server sent to a TerminatedError.
func terminated(code int64, message string, data any) *TerminatedError {
	return &TerminatedError{Kind: kindOfCode(mcp.ErrorCode(code)), Code: code, Message: message, Data: data}
}
