package jsonrpc2

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors. Decoding errors wrap ErrParse or ErrInvalidRequest, so a
// connection can answer them with the right code and keep going.
var (
	// ErrParse reports bytes that are not valid JSON.
	ErrParse = errors.New("parse error")
	// ErrInvalidRequest reports valid JSON that is not a JSON-RPC message.
	ErrInvalidRequest = errors.New("invalid request")
	// ErrMessageTooLarge reports a message over the size limit; the rest of
	// it was discarded and the stream is still usable.
	ErrMessageTooLarge = errors.New("message too large")
	// ErrClosed is returned by calls on a connection that is closed or
	// closing, and by pending calls when the connection ends.
	ErrClosed = errors.New("jsonrpc2: connection closed")
	// ErrBatchNotAllowed reports a batch received where batches are off.
	ErrBatchNotAllowed = errors.New("batches are not supported")
	// ErrBusy reports a request refused because too many are in flight.
	ErrBusy = errors.New("too many requests in flight")
	// ErrUnreadableResponse ends an outgoing call whose response could not
	// be read: over the size limit, nested too deep, malformed or not a
	// valid JSON-RPC response. The error wraps the *DecodeError that says
	// why (unreadable.go gives the rule).
	ErrUnreadableResponse = errors.New("jsonrpc2: response could not be read")
)

// Error is a JSON-RPC error object, as carried in an error response. It is
// also a Go error, so handlers may return one to choose the code.
type Error struct {
	Code    Code            `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the message, followed by the code.
func (e *Error) Error() string {
	return e.Message + " (code " + strconv.FormatInt(int64(e.Code), 10) + ")"
}

// NewError returns an *Error with the given code and formatted message.
func NewError(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the error response that reports err: the
// code of the *Error it wraps, the code of the decoding failure it reports,
// or CodeInternalError. It returns 0 for a nil error.
func CodeOf(err error) Code {
	if err == nil {
		return 0
	}
	return errorFor(err).Code
}

// errorFor maps an error to the wire error object that reports it.
func errorFor(err error) *Error {
	var werr *Error
	switch {
	case errors.As(err, &werr):
		return werr
	case errors.Is(err, ErrParse):
		return &Error{Code: CodeParseError, Message: err.Error()}
	case errors.Is(err, ErrInvalidRequest), errors.Is(err, ErrMessageTooLarge),
		errors.Is(err, ErrBatchNotAllowed):
		return &Error{Code: CodeInvalidRequest, Message: err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
