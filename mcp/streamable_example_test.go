package mcp_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

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
	ts := httptest.NewServer(handler) // listens on 127.0.0.1, which the default Host check accepts
	defer ts.Close()
	defer handler.Close() // first: it ends open streams, which ts.Close would wait for

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

// A legacy session (protocol 2025-11-25 and earlier) receives the server's
// own messages, such as list changes, on a GET stream. The client opens it
// only once it has a use for it, here a handler for tool list changes, so
// that an idle session without one costs no goroutine.
func ExampleNewStreamableClientTransport_legacyNotifications() {
	tool := func(name string) *mcp.ServerTool {
		return &mcp.ServerTool{
			Tool: &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			},
		}
	}
	server := mcp.NewServer("catalog", "v1", nil)
	server.AddTools(tool("first"))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(handler)
	defer ts.Close()
	defer handler.Close() // first: it ends the GET stream, which ts.Close would wait for

	changed := make(chan struct{}, 1)
	client := mcp.NewClient("client", "v1", &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20251125,
		ToolListChangedHandler: func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	session, err := client.Connect(context.Background(), mcp.NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	server.AddTools(tool("late"))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		log.Fatal("no tools/list_changed notification")
	}
	for tool, err := range session.Tools(context.Background(), nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(session.ProtocolVersion(), tool.Name)
	}
	// Output:
	// 2025-11-25 first
	// 2025-11-25 late
}

// Serve MCP with the http.Server settings the handler needs, and shut
// both down in order: the handler first (calls in progress finish, then
// its streams end), then the server, which would otherwise wait for the
// streams.
func ExampleStreamableHTTPHandler_Shutdown() {
	server := mcp.NewServer("greeter", "v1", nil)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{MaxSessions: 1000})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       60 * time.Second,
		// No WriteTimeout: it would cut SSE streams. The handler bounds
		// each write itself (StreamableHTTPOptions.WriteTimeout).
	}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = srv
	ts.Start()
	fmt.Println("live sessions:", handler.Stats().Sessions)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := handler.Shutdown(ctx); err != nil {
		log.Print(err)
	}
	if err := srv.Shutdown(ctx); err != nil {
		log.Print(err)
	}
	// Output: live sessions: 0
}
