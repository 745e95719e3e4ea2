package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

// Sending middleware sees every request a client sends, with its typed
// params, and the decoded result.
func ExampleClient_AddSendingMiddleware() {
	server := mcp.NewServer("greeter", "v1", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in struct {
		Name string `json:"name"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("hi " + in.Name)}, nil
	}))
	client := mcp.NewClient("client", "v1", nil)
	// docs:region sending
	client.AddSendingMiddleware(func(next mcp.MethodHandler[mcp.ClientSession]) mcp.MethodHandler[mcp.ClientSession] {
		return func(ctx context.Context, cs *mcp.ClientSession, method string, params any) (any, error) {
			res, err := next(ctx, cs, method, params)
			info, _ := mcp.RequestInfoFromContext(ctx)
			fmt.Printf("sent %s (id %v) with %T, got %T\n", method, info.ID, params, res)
			return res, err
		}
	})
	// docs:endregion
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil); err != nil {
		log.Fatal(err)
	}
	// Output:
	// sent server/discover (id 1) with *mcp.DiscoverParams, got *mcp.DiscoverResult
	// sent tools/call (id 2) with *mcp.CallToolParams, got *mcp.CallToolResult
}

type echoParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	Text string   `json:"text"`
}

type echoResult struct {
	Text string `json:"text"`
}

// A method beyond the protocol's: the server adds it, the client calls it.
func ExampleNewServerMethod() {
	server := mcp.NewServer("s", "v1", nil)
	server.AddMethods(mcp.NewServerMethod("example.com/echo",
		func(ctx context.Context, ss *mcp.ServerSession, p *echoParams) (*echoResult, error) {
			return &echoResult{Text: p.Text + " (at " + ss.ProtocolVersion() + ")"}, nil
		}, nil))
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient("c", "v1", nil).Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	var res echoResult
	if err := cs.Call(ctx, "example.com/echo", &echoParams{Text: "hello"}, &res); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	// Output:
	// hello (at 2026-07-28)
}
