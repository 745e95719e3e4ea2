package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestExitCodes checks the exit code contract and the error line of
// failures that need no particular server.
func TestExitCodes(t *testing.T) {
	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://example.invalid/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer unauthorized.Close()
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	defer forbidden.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()

	tests := []struct {
		name    string
		args    []string
		exit    int
		errCode string
	}{
		{"no verb", nil, exitUsage, "usage"},
		{"unknown verb", []string{"frobnicate"}, exitUsage, "usage"},
		{"unknown flag", []string{"tools", "--frob", everythingURL}, exitUsage, "usage"},
		{"no target", []string{"tools"}, exitUsage, "usage"},
		{"not a URL", []string{"tools", "example.com"}, exitUsage, "usage"},
		{"nothing after --", []string{"tools", "--"}, exitUsage, "usage"},
		{"bad header", []string{"tools", "--header", "nocolon", everythingURL}, exitUsage, "usage"},
		{"bad -e", []string{"tools", "-e", "NOEQUALS", "--", "true"}, exitUsage, "usage"},
		{"header on stdio", []string{"tools", "-H", "A: b", "--", "true"}, exitUsage, "usage"},
		{"bad protocol", []string{"tools", "--protocol", "future", everythingURL}, exitUsage, "usage"},
		{"bad integer", []string{"call", everythingURL, "slow_compute", "seconds=soon"}, exitUsage, "usage"},
		{"call without tool", []string{"call", everythingURL}, exitUsage, "usage"},
		{"unknown @NAME", []string{"tools", "@nothing"}, exitUsage, "usage"},
		{"401", []string{"tools", unauthorized.URL + "/mcp"}, exitAuthRequired, "auth_required"},
		{"403", []string{"ping", forbidden.URL + "/mcp"}, exitAuthRequired, "auth_required"},
		{"connection refused", []string{"tools", closedURL}, exitUnreachable, "unreachable"},
		{"no such command", []string{"tools", "--", "/nonexistent/mcp-server"}, exitUnreachable, "unreachable"},
		{"server exits at once", []string{"tools", "--", "false"}, exitUnreachable, "unreachable"},
		{"tool error", []string{"call", everythingURL, "test_error_handling"}, exitToolError, "tool_is_error"},
		{"unknown tool", []string{"call", everythingURL, "no_such_tool"}, exitToolError, "tool_not_found"},
		{"help", []string{"help"}, exitOK, ""},
		{"help verb", []string{"help", "call"}, exitOK, ""},
		{"-h", []string{"call", "-h"}, exitOK, ""},
		{"version", []string{"version"}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tt.exit, r.stderr)
			}
			checkErrorLine(t, r, tt.errCode)
		})
	}
}

// TestAuthErrorLine checks the fields of the auth_required error line.
func TestAuthErrorLine(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer srv.Close()
	r := runCLI(t, "tools", srv.URL+"/mcp")
	var line struct {
		Error errorBody `json:"error"`
	}
	if err := jsonUnmarshal([]byte(strings.TrimSpace(r.stderr)), &line); err != nil {
		t.Fatalf("stderr %q: %v", r.stderr, err)
	}
	if line.Error.Status != 401 || line.Error.URL != srv.URL+"/mcp" {
		t.Fatalf("error line %+v, want status 401 and the URL", line.Error)
	}
}

// TestLingeringServer checks that a one-shot command ends within 0.5 s of
// the server's answer although the server ignores its input closing and
// SIGTERM.
func TestLingeringServer(t *testing.T) {
	r := runCLI(t, append([]string{"call", "--json", "echo", "text=hi", "--"}, selfCommand("linger")...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	d := r.ended.Sub(r.answered)
	t.Logf("ended %v after the answer", d)
	if d > 500*time.Millisecond {
		t.Fatalf("ended %v after the answer, want at most 500ms", d)
	}
}

// TestBinaryOverStdio runs the program as a process (the test binary
// acting as gomcp) against the everything-server over stdio: the exit
// code, the output and the one error line on stderr.
func TestBinaryOverStdio(t *testing.T) {
	tests := []struct {
		args    []string
		exit    int
		stdout  string
		errCode string
	}{
		{[]string{"call", "--json", "greet", "name=Ada", "--", everythingBin}, 0, `"text":"Hello, Ada!"`, ""},
		{[]string{"call", "--json", "test_error_handling", "--", everythingBin}, exitToolError, `"isError":true`, "tool_is_error"},
		{[]string{"tools", "--", "/nonexistent/server"}, exitUnreachable, "", "unreachable"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " "), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], tt.args...)
			cmd.Env = append(os.Environ(), "GOMCP_TEST_MAIN=1")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.exit || !strings.Contains(stdout.String(), tt.stdout) {
				t.Fatalf("exit %d, stdout %q; want exit %d and %q; stderr %s", code, stdout.String(), tt.exit, tt.stdout, stderr.String())
			}
			checkErrorLine(t, result{stderr: stderr.String()}, tt.errCode)
			if tt.errCode != "" && strings.Count(stderr.String(), "\n") != 1 {
				t.Fatalf("stderr has more than the error line: %q", stderr.String())
			}
		})
	}
}

// TestSSEFallback checks that a URL served only over HTTP+SSE (2024-11-05)
// works: streamable HTTP POSTs are refused, so the client falls back.
func TestSSEFallback(t *testing.T) {
	srv := mcp.NewServer("sse-only", "1.0.0", nil)
	srv.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "hello", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("hello over SSE")}}, nil
		},
	})
	h := mcp.NewSSEHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer h.Close()
	r := runCLI(t, "call", hs.URL+"/sse", "hello")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "hello over SSE" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestServerStderr checks that the end of a failing stdio server's stderr
// explains the unreachable error, and that --server-logs shows it as it
// comes.
func TestServerStderr(t *testing.T) {
	r := runCLI(t, "tools", "--", "sh", "-c", "echo 'config file missing' >&2; exit 1")
	if r.code != exitUnreachable || !strings.Contains(r.stderr, "config file missing") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, "tools", "--server-logs", "--", "sh", "-c", "echo 'starting up' >&2; exit 1")
	if !strings.HasPrefix(r.stderr, "starting up\n") {
		t.Fatalf("--server-logs: stderr %q", r.stderr)
	}
}
