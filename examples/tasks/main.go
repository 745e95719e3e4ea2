// Command tasks is an MCP server whose slow tool runs as a task (the
// io.modelcontextprotocol/tasks extension): a client that declares the
// extension gets a task id at once, and polls the task, or comes back for
// it later, while the tool works in the background.
//
//	go run ./examples/tasks            # stdio
//	go run ./examples/tasks -http localhost:8080
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(func() *mcp.Server { return newServer(time.Second, time.Second) }) }

type reportArgs struct {
	Pages int `json:"pages"`
}

// newServer returns the server; each page of a report takes page, and
// clients are told to poll every poll.
func newServer(page, poll time.Duration) *mcp.Server {
	// docs:region server
	server := mcp.NewServer("reports", "v1.0.0", &mcp.ServerOptions{
		// Tasks live in memory by default; TaskOptions.Store takes another
		// store, shared by every instance of a replicated server.
		Tasks: &mcp.TaskOptions{TTL: time.Hour, PollInterval: poll},
	})
	server.AddTools(mcp.NewTool("build_report", "Builds a long report",
		func(ctx context.Context, ss *mcp.ServerSession, in reportArgs) ([]*mcp.Content, error) {
			for i := range in.Pages {
				// Tell pollers how it goes.
				if err := ss.SetTaskStatusMessage(ctx, fmt.Sprintf("page %d of %d", i+1, in.Pages)); err != nil {
					return nil, err
				}
				select {
				case <-ctx.Done(): // the client cancelled the task
					return nil, ctx.Err()
				case <-time.After(page):
				}
			}
			return []*mcp.Content{mcp.NewTextContent(fmt.Sprintf("report of %d pages", in.Pages))}, nil
		},
		// Optional: clients without the extension get a plain call.
		mcp.TaskSupport(mcp.TaskSupportOptional)))
	// docs:endregion
	return server
}
