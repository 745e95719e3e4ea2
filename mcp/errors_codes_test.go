package mcp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

func TestCodeOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want ErrorCode
	}{
		{"nil", nil, 0},
		{"JSON-RPC error", newError(CodeInvalidParams, "bad"), CodeInvalidParams},
		{"wrapped", fmt.Errorf("tools/call: %w", newError(CodeUnsupportedProtocolVersion, "old")), CodeUnsupportedProtocolVersion},
		{"malformed message", fmt.Errorf("reading: %w", jsonrpc2.ErrParse), CodeParseError},
		{"any other error", errors.New("disk full"), CodeInternalError},
		{"cancelled", context.Canceled, CodeInternalError},
	}
	for _, tt := range tests {
		if got := CodeOf(tt.err); got != tt.want {
			t.Errorf("%s: CodeOf = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestJSONRPCErrorText(t *testing.T) {
	err := newError(CodeInvalidParams, "missing tool name")
	if got, want := err.Error(), "missing tool name (code -32602)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := ErrorCode(CodeMethodNotFound).String(), "-32601 (method not found)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := ErrorCode(-32099).String(), "-32099"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
