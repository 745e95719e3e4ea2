package mcpserver

import (
	"context"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// withProgress returns ctx carrying a progress reporter when the client
// sent a progress token with the tool call, and the function that ends it
// (sending the last notification, if a cold answer sent any, before the
// result). Without a token ctx is returned as it is and nothing is sent.
// Notifications are best effort: one that cannot be sent (the client has
// gone) is dropped, and the answer goes on.
func withProgress(ctx context.Context) (context.Context, func()) {
	req, ok := mcp.ToolRequestFromContext(ctx)
	if !ok || req.ProgressToken() == nil {
		return ctx, func() {}
	}
	r := progress.New(func(u progress.Update) {
		_ = req.ReportProgress(ctx, u.Progress, u.Total, u.Message())
	}, nil)
	return progress.NewContext(ctx, r), r.Finish
}
