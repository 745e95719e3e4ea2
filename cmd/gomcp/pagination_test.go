package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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
