// Command testing is a small calculator server whose test file shows how to
// test an MCP server: table tests through an in-memory client, and a golden
// transcript of the exact JSON exchanged.
//
//	go run ./examples/testing            # stdio
//	go test ./examples/testing           # the tests
//	go test ./examples/testing -update   # rewrite the golden transcript
package main

import (
	"context"
	"errors"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(newServer) }

type divideArgs struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type quotient struct {
	Result float64 `json:"result"`
}

func newServer() *mcp.Server {
	server := mcp.NewServer("calculator", "v1.0.0", nil)
	server.AddTools(mcp.NewStructuredTool("divide", "Divides a by b",
		func(ctx context.Context, ss *mcp.ServerSession, in divideArgs) (quotient, error) {
			if in.B == 0 {
				// A handler's error is a tool result with isError: the
				// model reads it and can try again.
				return quotient{}, errors.New("division by zero")
			}
			return quotient{in.A / in.B}, nil
		}))
	return server
}
