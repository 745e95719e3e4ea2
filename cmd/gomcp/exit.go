package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// Exit codes, compatible with the MCP Inspector's CLI.
const (
	exitOK           = 0
	exitUsage        = 1 // usage error or unexpected failure
	exitAuthRequired = 3 // the server answered 401 or 403
	exitUnreachable  = 4 // the server could not be reached or started
	exitToolError    = 5 // the tool reported an error, or there is no such tool
	exitLint         = 6 // lint found problems
	exitCardInvalid  = 7 // the server card or catalog is invalid
	exitCardMissing  = 8 // there is no server card (404, 410, or none in the catalog)
)

// A cliError is a failure with its exit code and the code of the JSON
// error line written to stderr.
type cliError struct {
	exit   int
	code   string // auth_required, unreachable, tool_is_error, ...
	msg    string
	cause  error
	status int    // HTTP status, if one explains the failure
	url    string // the URL that answered it
}

func (e *cliError) Error() string {
	if e.cause != nil {
		return e.msg + ": " + e.cause.Error()
	}
	return e.msg
}

func (e *cliError) Unwrap() error { return e.cause }

// usageError is an error in the command line.
func usageError(format string, args ...any) *cliError {
	return &cliError{exit: exitUsage, code: "usage", msg: fmt.Sprintf(format, args...)}
}

// errorLine is the JSON line written to stderr on every non-zero exit.
type errorLine struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Cause   string `json:"cause,omitempty"`
	Status  int    `json:"status,omitzero"`
	URL     string `json:"url,omitempty"`
}

// report writes err's JSON line to w and returns its exit code.
func report(w io.Writer, err error) int {
	var ce *cliError
	if !errors.As(err, &ce) {
		ce = &cliError{exit: exitUsage, code: "unexpected", msg: "unexpected error", cause: err}
	}
	body := errorBody{Code: ce.code, Message: ce.msg, Status: ce.status, URL: ce.url}
	if ce.cause != nil {
		body.Cause = ce.cause.Error()
	}
	line, mErr := strictjson.Marshal(errorLine{body})
	if mErr != nil {
		line = []byte(`{"error":{"code":"unexpected","message":"cannot encode the error"}}`)
	}
	fmt.Fprintf(w, "%s\n", line)
	return ce.exit
}

// classify turns an error of a connection or a request into a cliError,
// using what the HTTP exchange observed (nil for stdio).
func classify(err error, what string, obs *observer) error {
	if err == nil {
		return nil
	}
	var ce *cliError
	if errors.As(err, &ce) {
		return err
	}
	if obs != nil {
		if status, url := obs.authFailure(); status != 0 {
			return &cliError{exit: exitAuthRequired, code: "auth_required", msg: "authorization required", cause: err, status: status, url: url}
		}
	}
	if isUnreachable(err) {
		return &cliError{exit: exitUnreachable, code: "unreachable", msg: what, cause: err}
	}
	if errors.Is(err, mcp.ErrNotSupported) {
		return &cliError{exit: exitUsage, code: "not_supported", msg: what + ": not supported", cause: err}
	}
	if errors.Is(err, mcp.ErrUnsupportedVersion) {
		return &cliError{exit: exitUsage, code: "unsupported_version", msg: what + ": no common protocol version", cause: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &cliError{exit: exitUsage, code: "timeout", msg: what + ": timed out", cause: err}
	}
	var rpc *mcp.JSONRPCError
	if errors.As(err, &rpc) {
		return &cliError{exit: exitUsage, code: "server_error", msg: fmt.Sprintf("%s: the server answered error %d", what, rpc.Code), cause: err}
	}
	return &cliError{exit: exitUsage, code: "unexpected", msg: what, cause: err}
}

// isUnreachable reports errors that mean the server is not there: a
// failed dial, an unknown host, a command that cannot start.
func isUnreachable(err error) bool {
	var opErr *net.OpError
	var dnsErr *net.DNSError
	var execErr *exec.Error
	var pathErr *os.PathError
	switch {
	case errors.As(err, &opErr), errors.As(err, &dnsErr), errors.As(err, &execErr), errors.As(err, &pathErr):
		return true
	case errors.Is(err, mcp.ErrConnectionClosed):
		return true
	}
	return strings.Contains(err.Error(), "connection refused")
}
