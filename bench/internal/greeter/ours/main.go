// Command ours is the greeter written with gomcp, as small as the SDK
// allows: one tool, "greet", served over stdio. The cold-start benchmark
// builds it beside the same greeter written with each peer SDK.
package main

import (
	"context"
	"log"

	"github.com/gomcp/sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func main() {
	s := mcp.NewServer("greeter", "v1.0.0", nil)
	s.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
	}))
	if err := s.Run(context.Background(), mcp.NewStdIOTransport()); err != nil {
		log.Fatal(err)
	}
}
