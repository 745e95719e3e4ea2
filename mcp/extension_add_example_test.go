package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

type greetParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	Name string   `json:"name"`
}

type greetResult struct {
	Greeting string `json:"greeting"`
}

// An extension package turns itself on with one call per side: the server
// declares com.example/greet, with its settings, and adds its method; the
// client declares it too. The client reads the server's settings and calls
// the method.
func ExampleServer_AddExtension() {
	ctx := context.Background()
	const ext = "com.example/greet"

	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddExtension(ext, map[string]any{"languages": []string{"en"}},
		mcp.NewServerMethod(ext+"/hello", func(ctx context.Context, ss *mcp.ServerSession, p *greetParams) (*greetResult, error) {
			return &greetResult{Greeting: "Hello, " + p.Name}, nil
		}, nil))

	client := mcp.NewClient("client", "v1.0.0", nil)
	client.AddExtension(ext, nil) // {}: supported, no settings

	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	serverSession, err := server.Connect(ctx, serverTransport)
	if err != nil {
		log.Fatal(err)
	}
	defer serverSession.Wait()
	session, err := client.Connect(ctx, clientTransport)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	settings, _ := session.ServerExtension(ext)
	fmt.Println("server settings:", settings)
	var res greetResult
	if err := session.Call(ctx, ext+"/hello", &greetParams{Name: "Ada"}, &res); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Greeting)
	// Output:
	// server settings: map[languages:[en]]
	// Hello, Ada
}
