// Command progress is an MCP server whose tool reports progress while it
// works and stops as soon as the client cancels the call.
//
//	go run ./examples/progress            # stdio
//	go run ./examples/progress -http localhost:8080
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(func() *mcp.Server { return newServer(100*time.Millisecond, nil) }) }

// newServer returns the server; each step of the tool takes step, and
// done, if not nil, is called with the error each call of the tool returns.
func newServer(step time.Duration, done func(error)) *mcp.Server {
	server := mcp.NewServer("worker", "v1.0.0", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{
			Name:        "work",
			Description: "Works through a number of steps, reporting progress",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","minimum":1}},"required":["steps"]}`),
		},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			var in struct {
				Steps int `json:"steps"`
			}
			if err := json.Unmarshal(p.Arguments.(json.RawMessage), &in); err != nil {
				return nil, err
			}
			res, err := work(ctx, ss, p.Meta.ProgressToken, in.Steps, step)
			if done != nil {
				done(err)
			}
			return res, err
		},
	})
	return server
}

// docs:region work
// work does steps steps of work, reporting progress to the client if it
// asked for it (token is not nil), and returns when ctx is cancelled: the
// client cancelled the call or the connection closed.
func work(ctx context.Context, ss *mcp.ServerSession, token any, steps int, step time.Duration) (*mcp.CallToolResult, error) {
	for i := range steps {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(step):
		}
		err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(i + 1),
			Total:         float64(steps),
			Message:       fmt.Sprintf("step %d of %d", i+1, steps),
		})
		if err != nil {
			return nil, err
		}
	}
	return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("done")}}, nil
}

// docs:endregion
