package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestPagination lists a server with pages of two: every page is followed
// unless --limit, which stops with the next cursor.
func TestPagination(t *testing.T) {
	srv := mcp.NewServer("paged", "1.0.0", &mcp.ServerOptions{PageSize: 2})
	for i := range 5 {
		srv.AddTools(&mcp.ServerTool{
			Tool: &mcp.Tool{Name: fmt.Sprintf("t%d", i), Description: "d", InputSchema: map[string]any{"type": "object"}},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			},
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer h.Close()
	for _, era := range eras {
		r := runCLI(t, "tools", "--json", "--protocol", era, hs.URL)
		if r.code != 0 || strings.Count(r.stdout, `"name":`) != 5 || strings.Contains(r.stdout, "nextCursor") {
			t.Fatalf("%s: all pages: exit %d, stdout %s, stderr %s", era, r.code, r.stdout, r.stderr)
		}
		r = runCLI(t, "tools", "--json", "--limit", "3", "--protocol", era, hs.URL)
		if r.code != 0 || strings.Count(r.stdout, `"name":`) != 3 || !strings.Contains(r.stdout, `"nextCursor":`) {
			t.Fatalf("%s: --limit 3: exit %d, stdout %s", era, r.code, r.stdout)
		}
	}
}

// TestStdioEnvironment checks -e and --cwd for a stdio server, and
// variables of a config entry.
func TestStdioEnvironment(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, append([]string{"call", "-e", "GOMCP_GREETING=hello", "--cwd", dir, "env", "name=GOMCP_GREETING", "--"}, selfCommand("stdio")...)...)
	if r.code != 0 || r.stdout != "hello in "+filepath.Base(dir)+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	config := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, config, fmt.Sprintf(`{"mcpServers":{"s":{"command":"env","args":["GOMCP_TEST_SERVER=stdio",%q,"-test.run=^$"],"env":{"GOMCP_GREETING":"${WORD}"}}}}`, os.Args[0]))
	env, out, errw := testEnv(t, "", map[string]string{"WORD": "expanded"})
	r = runIn(t, env, out, errw, "call", "--config", config, "@s", "env", "name=GOMCP_GREETING")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "expanded in ") {
		t.Fatalf("config: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestBridgeOAuth bridges to a protected server with client credentials.
func TestBridgeOAuth(t *testing.T) {
	f := newFakeOAuth(t)
	line := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	env, out, errw := testEnv(t, line, map[string]string{"GOMCP_CLIENT_SECRET": "s3cret"})
	r := runIn(t, env, out, errw, "bridge", "--client-credentials", "--client-id", "svc", "--token-store", filepath.Join(t.TempDir(), "t.json"), f.srv.URL+"/mcp")
	if r.code != 0 || !strings.Contains(r.stdout, `"serverInfo":{"name":"protected"`) {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}
