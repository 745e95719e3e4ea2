package bench

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/gomcp/sdk/mcp"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The Notifier of each SDK. A tool list change adds a tool named
// "changed-<k>" the first time and removes it the next, so that the list
// really changes every time; each SDK then sends
// notifications/tools/list_changed to the clients that listen, as its
// documentation describes.

// changedTool names the tool ChangeTools adds or removes on its k-th call.
func changedTool(k int64) string { return fmt.Sprintf("changed-%d", k/2) }

var (
	_ Notifier = (*oursServer)(nil)
	_ Notifier = (*gosdkServer)(nil)
	_ Notifier = (*mcpgoServer)(nil)
)

// oursResource is the resource WatchedURI of our server.
func oursResource() *mcp.ServerResource {
	return &mcp.ServerResource{
		Resource: &mcp.Resource{URI: WatchedURI, Name: "watched", MIMEType: "text/plain"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: WatchedURI, Text: "watched"}}}, nil
		},
	}
}

// oursSubscriptions are the server options that let clients subscribe to
// resources: our server keeps the subscriptions itself, the handlers only
// approve them.
func oursSubscriptions() *mcp.ServerOptions {
	accept := func(context.Context, *mcp.ServerSession, *mcp.SubscribeParams) error { return nil }
	return &mcp.ServerOptions{
		SubscribeHandler:   accept,
		UnsubscribeHandler: func(context.Context, *mcp.ServerSession, *mcp.UnsubscribeParams) error { return nil },
	}
}

func (o *oursServer) ChangeTools(ctx context.Context) error {
	k := o.changes.Add(1) - 1
	if k%2 == 0 {
		o.s.AddTools(mcp.NewTool(changedTool(k), "a tool that comes and goes", oursEcho))
	} else {
		o.s.RemoveTools(changedTool(k))
	}
	return nil
}

func (o *oursServer) UpdateResource(ctx context.Context) error {
	return o.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedParams{URI: WatchedURI})
}

func (g *gosdkServer) ChangeTools(ctx context.Context) error {
	k := g.changes.Add(1) - 1
	if k%2 == 0 {
		gosdk.AddTool(g.s, &gosdk.Tool{Name: changedTool(k), Description: "a tool that comes and goes"}, gosdkEcho)
	} else {
		g.s.RemoveTools(changedTool(k))
	}
	return nil
}

func (g *gosdkServer) UpdateResource(ctx context.Context) error {
	return g.s.ResourceUpdated(ctx, &gosdk.ResourceUpdatedNotificationParams{URI: WatchedURI})
}

func (m *mcpgoServer) ChangeTools(ctx context.Context) error {
	k := m.changes.Add(1) - 1
	if k%2 == 0 {
		m.s.AddTool(mcpgo.NewTool(changedTool(k), mcpgo.WithDescription("a tool that comes and goes"),
			mcpgo.WithString("text")), mcpgoEcho)
	} else {
		m.s.DeleteTools(changedTool(k))
	}
	return nil
}

// UpdateResource is pending for mcp-go: its server accepts
// resources/subscribe but keeps no subscriptions, so a program that wants
// notifications/resources/updated must track subscribers itself.
func (m *mcpgoServer) UpdateResource(ctx context.Context) error {
	return fmt.Errorf("%w: mcp-go keeps no resource subscriptions of its own", ErrPending)
}

// changeCounter counts ChangeTools calls of one server.
type changeCounter = atomic.Int64
