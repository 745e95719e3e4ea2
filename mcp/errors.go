package mcp

import (
	"errors"
	"fmt"

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
