package mcp_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gomcp/sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
}

// The package overview's program: a greeter served over streamable HTTP
// and a client that calls it, first in protocol 2026-07-28, then in
// 2025-11-25 with a session, from the same handler.
func Example() {
	ctx := context.Background()
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", greet))

	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ts := httptest.NewServer(mux) // a real program runs an http.Server with timeouts
	defer ts.Close()
	defer handler.Close() // first: it ends open streams, which ts.Close would wait for

	for _, version := range []string{"", mcp.Version20251125} {
		client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})
		session, err := client.Connect(ctx, mcp.NewStreamableClientTransport(ts.URL+"/mcp", nil))
		if err != nil {
			log.Fatal(err)
		}
		res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(session.ProtocolVersion(), res.Content[0].Text)
		session.Close()
	}
	// Output:
	// 2026-07-28 Hi you
	// 2025-11-25 Hi you
}
