package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

// greetTool is the greeter, written with the plain tool API.
func greetTool() *mcp.ServerTool {
	return &mcp.ServerTool{
		Tool: &mcp.Tool{
			Name:        "greet",
			Description: "say hi",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			var args struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(p.Arguments.(json.RawMessage), &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("Hi " + args.Name)}}, nil
		},
	}
}

// A server with one tool, connected to a client in the same process. Over
// stdio the server would call server.Run(ctx, mcp.NewStdIOTransport()).
func ExampleServer() {
	ctx := context.Background()
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(greetTool())

	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	serverSession, err := server.Connect(ctx, serverTransport)
	if err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient("client", "v1.0.0", nil)
	session, err := client.Connect(ctx, clientTransport)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	fmt.Println(session.ServerInfo().Name, session.ProtocolVersion())
	session.Close()
	serverSession.Wait()
	// Output: greeter 2026-07-28
}

// A client lists a server's tools; the iterator walks every page.
func ExampleClientSession_Tools() {
	ctx := context.Background()
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(greetTool())
	ct, st := mcp.NewInMemoryTransports()
	server.Connect(ctx, st)
	session, err := mcp.NewClient("client", "v1.0.0", nil).Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tool.Name+":", tool.Description)
	}
	// Output: greet: say hi
}

// CallTool takes the tool's name and its arguments as any value that
// encodes as a JSON object. A client may pin a protocol version; this one
// speaks 2025-11-25, with the initialize handshake.
func ExampleClientSession_CallTool() {
	ctx := context.Background()
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(greetTool())
	ct, st := mcp.NewInMemoryTransports()
	server.Connect(ctx, st)
	client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125})
	session, err := client.Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text, session.ProtocolVersion())
	// Output: Hi you 2025-11-25
}

// Middleware sees every request a server handles, with decoded params.
func ExampleServer_AddMiddleware() {
	ctx := context.Background()
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(greetTool())
	server.AddMiddleware(func(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
		return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
			if p, ok := params.(*mcp.CallToolParams); ok {
				fmt.Println("calling", p.Name)
			}
			return next(ctx, ss, method, params)
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	server.Connect(ctx, st)
	session, err := mcp.NewClient("client", "v1.0.0", nil).Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	if _, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil); err != nil {
		log.Fatal(err)
	}
	// Output: calling greet
}
