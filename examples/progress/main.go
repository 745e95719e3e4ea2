// Command progress is an MCP server whose tool reports progress while it
// works and stops as soon as the client cancels the call.
//
//	go run ./examples/progress            # stdio
//	go run ./examples/progress -http localhost:8080
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(func() *mcp.Server { return newServer(100*time.Millisecond, nil) }) }

// workInput is the tool's input: its schema is inferred from the struct,
// and the SDK validates the arguments against it before the handler runs.
type workInput struct {
	Steps int `json:"steps" jsonschema:"description=the number of steps to work through,minimum=1"`
}

// newServer returns the server; each step of the tool takes step, and
// done, if not nil, is called with the error each call of the tool returns.
func newServer(step time.Duration, done func(error)) *mcp.Server {
	server := mcp.NewServer("worker", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("work", "Works through a number of steps, reporting progress",
		func(ctx context.Context, ss *mcp.ServerSession, in workInput) ([]*mcp.Content, error) {
			content, err := work(ctx, in.Steps, step)
			if done != nil {
				done(err)
			}
			return content, err
		}))
	return server
}

// docs:region work
// work does steps steps of work, reporting progress to the client if it
// asked for it, and returns when ctx is cancelled: the client cancelled the
// call or the connection closed.
func work(ctx context.Context, steps int, step time.Duration) ([]*mcp.Content, error) {
	req, _ := mcp.ToolRequestFromContext(ctx)
	for i := range steps {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(step):
		}
		msg := fmt.Sprintf("step %d of %d", i+1, steps)
		if err := req.ReportProgress(ctx, float64(i+1), float64(steps), msg); err != nil {
			return nil, err
		}
	}
	return []*mcp.Content{mcp.NewTextContent("done")}, nil
}

// docs:endregion
