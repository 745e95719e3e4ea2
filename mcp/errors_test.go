package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
	if got, want := CodeMethodNotFound.String(), "-32601 (method not found)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := ErrorCode(-32099).String(), "-32099"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestErrorCodeRoundTrip sends each typed code from a tool handler and reads
// it back on the client, over a transport that encodes every message, in
// both kinds of session: the code compares equal to the constant, selects a
// switch case through CodeOf, and prints its name.
func TestErrorCodeRoundTrip(t *testing.T) {
	const appCode ErrorCode = -32050 // a code of the application's own
	codes := []ErrorCode{CodeInvalidParams, CodeURLElicitationRequired, CodeResourceNotFound, appCode}
	server := NewServer("s", "v1", nil)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "fail", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(_ context.Context, _ *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			var args struct {
				Code ErrorCode `json:"code"`
			}
			if err := json.Unmarshal(p.Arguments.(json.RawMessage), &args); err != nil {
				return nil, err
			}
			return nil, &JSONRPCError{Code: args.Code, Message: "refused"}
		},
	})
	for _, transport := range []string{"pipes", "http"} {
		for _, version := range []string{Version20251125, Version20260728} {
			t.Run(transport+"/"+version, func(t *testing.T) {
				cs := connectOver(t, transport, server, NewClient("c", "v1", &ClientOptions{ProtocolVersion: version}))
				for _, code := range codes {
					_, err := cs.CallTool(context.Background(), "fail", map[string]any{"code": code}, nil)
					var werr *JSONRPCError
					if !errors.As(err, &werr) {
						t.Fatalf("code %v: error %v (%T), want a *JSONRPCError", code, err, err)
					}
					if werr.Code != code || werr.Message != "refused" {
						t.Errorf("got code %v, message %q; want %v, %q", werr.Code, werr.Message, code, "refused")
					}
					var name string
					switch CodeOf(err) {
					case CodeInvalidParams:
						name = "invalid params"
					case CodeURLElicitationRequired:
						name = "URL elicitation required"
					case CodeResourceNotFound:
						name = "resource not found"
					case appCode:
						name = ""
					default:
						t.Errorf("CodeOf(%v) = %v, matches no case", err, CodeOf(err))
					}
					want := strconv.FormatInt(int64(code), 10)
					if name != "" {
						want += " (" + name + ")"
					}
					if got := CodeOf(err).String(); got != want {
						t.Errorf("String() = %q, want %q", got, want)
					}
				}
			})
		}
	}
}

// TestErrorCodeNames checks the name of every code the specifications
// define, as String prints it.
func TestErrorCodeNames(t *testing.T) {
	tests := []struct {
		code ErrorCode
		want string
	}{
		{CodeParseError, "-32700 (parse error)"},
		{CodeInvalidRequest, "-32600 (invalid request)"},
		{CodeMethodNotFound, "-32601 (method not found)"},
		{CodeInvalidParams, "-32602 (invalid params)"},
		{CodeInternalError, "-32603 (internal error)"},
		{CodeResourceNotFound, "-32002 (resource not found)"},
		{CodeURLElicitationRequired, "-32042 (URL elicitation required)"},
		{CodeHeaderMismatch, "-32020 (header mismatch)"},
		{CodeMissingRequiredClientCapability, "-32021 (missing required client capability)"},
		{CodeUnsupportedProtocolVersion, "-32022 (unsupported protocol version)"},
		{-32000, "-32000"},
		{0, "0"},
	}
	for _, tt := range tests {
		if got := tt.code.String(); got != tt.want {
			t.Errorf("ErrorCode(%d).String() = %q, want %q", int64(tt.code), got, tt.want)
		}
		if got := fmt.Sprint(tt.code); got != tt.want {
			t.Errorf("fmt.Sprint(ErrorCode(%d)) = %q, want %q", int64(tt.code), got, tt.want)
		}
	}
}
