package mcp

import "context"

// A ToolRequest is the tools/call request a tool's handler serves. A typed
// tool's handler (NewTool, NewStructuredTool) receives only its decoded
// input; [ToolRequestFromContext] gives it the rest: the request's _meta,
// with its progress token, and a way to report progress.
type ToolRequest struct {
	// Session is the session serving the call, the handler's ss.
	Session *ServerSession
	// Params are the request's params as the handler's middleware passed
	// them on: Params.Meta is the request's _meta (Meta.ProgressToken is
	// set if the client asked for progress, Meta.Data holds the keys the
	// SDK does not model), Params.Arguments the raw JSON object the typed
	// input was decoded from. Treat them as read-only.
	Params *CallToolParams
}

// ToolRequestFromContext returns the tools/call request whose tool handler
// was given ctx, or a context derived from it, and whether there is one.
// It is there in the handler of every tool, typed or not, and in a task's
// handler (see TaskOptions) for as long as the task runs:
//
//	func count(ctx context.Context, ss *mcp.ServerSession, in countInput) ([]*mcp.Content, error) {
//		req, _ := mcp.ToolRequestFromContext(ctx)
//		for i := range in.N {
//			if err := req.ReportProgress(ctx, float64(i+1), float64(in.N), ""); err != nil {
//				return nil, err
//			}
//		}
//		return []*mcp.Content{mcp.NewTextContent("done")}, nil
//	}
func ToolRequestFromContext(ctx context.Context) (*ToolRequest, bool) {
	r, ok := ctx.Value(toolRequestKey{}).(*ToolRequest)
	return r, ok
}

// ProgressToken returns the request's progress token (a string or an
// int64), or nil if the client did not ask for progress.
func (r *ToolRequest) ProgressToken() any {
	if r == nil || r.Params == nil {
		return nil
	}
	return r.Params.Meta.ProgressToken
}

// ReportProgress sends the client a progress notification for the
// request: progress is the work done so far and must increase from one
// call to the next, total is the whole amount of work (0 if unknown), and
// message, if not empty, says what is happening. It does nothing and
// returns nil when the client did not ask for progress, so a handler may
// call it unconditionally; it is safe on a nil *ToolRequest for the same
// reason. The error is the notification's, such as a closed connection.
func (r *ToolRequest) ReportProgress(ctx context.Context, progress, total float64, message string) error {
	token := r.ProgressToken()
	if token == nil || r.Session == nil {
		return nil
	}
	return r.Session.NotifyProgress(ctx, &ProgressNotificationParams{
		ProgressToken: token,
		Progress:      progress,
		Total:         total,
		Message:       message,
	})
}

type toolRequestKey struct{}

// toolRequestContext carries a ToolRequest in the context of a tool's
// handler: the context and the request in one allocation.
type toolRequestContext struct {
	context.Context
	req ToolRequest
}

// Value returns the request for its key, and what the parent holds for
// every other key.
func (c *toolRequestContext) Value(key any) any {
	if _, ok := key.(toolRequestKey); ok {
		return &c.req
	}
	return c.Context.Value(key)
}

// withToolRequest returns ctx carrying the tools/call request p served by
// ss, for ToolRequestFromContext.
func withToolRequest(ctx context.Context, ss *ServerSession, p *CallToolParams) context.Context {
	return &toolRequestContext{Context: ctx, req: ToolRequest{Session: ss, Params: p}}
}
