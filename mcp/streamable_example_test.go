package mcp_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gomcp/sdk/mcp"
)

// Serve a server over streamable HTTP, and call it with the HTTP client
// transport. The client speaks 2026-07-28, and falls back to the session
// of 2025-11-25 with older servers.
func ExampleNewStreamableHTTPHandler() {
	server := mcp.NewServer("greeter", "v1", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "greet", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			// The HTTP request's headers reach the handler.
			user := mcp.HTTPRequestFromContext(ctx).Header.Get("X-User")
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("Hi " + user)}}, nil
		},
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	defer handler.Close()
	ts := httptest.NewServer(handler) // listens on 127.0.0.1, which the default Host check accepts
	defer ts.Close()

	transport := mcp.NewStreamableClientTransport(ts.URL, &mcp.StreamableClientTransportOptions{
		Header: http.Header{"X-User": {"Ada"}},
	})
	session, err := mcp.NewClient("client", "v1", nil).Connect(context.Background(), transport)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(context.Background(), "greet", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(session.ProtocolVersion(), res.Content[0].Text)
	// Output: 2026-07-28 Hi Ada
}
