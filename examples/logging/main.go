// Command logging is an MCP server whose tool sends log messages to the
// client (notifications/message), through log/slog or directly. Clients
// choose the lowest level they want to receive.
//
//	go run ./examples/logging            # stdio
//	go run ./examples/logging -http localhost:8080
package main

//lint:file-ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it: this example is about it

import (
	"context"
	"log/slog"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(newServer) }

type fetchArgs struct {
	URL string `json:"url"`
}

// docs:region handler
func fetch(ctx context.Context, ss *mcp.ServerSession, in fetchArgs) ([]*mcp.Content, error) {
	// A slog.Logger whose records go to this client. Records below the
	// level the client asked for cost nothing.
	logger := slog.New(mcp.NewLoggingHandler(ss, nil))
	logger.Debug("resolving", "url", in.URL)
	logger.Info("fetching", "url", in.URL)

	// Or send one message directly; Data is any JSON value.
	err := ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{
		Level: mcp.LoggingLevelWarning,
		Data:  map[string]any{"msg": "slow response", "url": in.URL},
	})
	if err != nil {
		return nil, err
	}
	return []*mcp.Content{mcp.NewTextContent("fetched " + in.URL)}, nil
}

// docs:endregion

func newServer() *mcp.Server {
	server := mcp.NewServer("fetcher", "v1.0.0", &mcp.ServerOptions{LoggerName: "fetcher"})
	server.AddTools(mcp.NewTool("fetch", "Fetches a URL (pretends to)", fetch))
	return server
}
