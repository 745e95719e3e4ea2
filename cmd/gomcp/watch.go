package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// A printer prints notifications as they come, one line each (NDJSON with
// --json), and ends the watch after --limit of them.
type printer struct {
	c     *cmdCtx
	mu    sync.Mutex
	n     int
	stop  context.CancelFunc
	limit int
}

// notification is one NDJSON line of watch.
type notification struct {
	Method string `json:"method"`
	Params any    `json:"params,omitempty"`
}

func (p *printer) print(method string, params any, human string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.limit > 0 && p.n >= p.limit {
		return
	}
	p.n++
	if p.c.o.json {
		_ = printJSON(p.c.env.stdout, notification{method, params})
	} else {
		fmt.Fprintf(p.c.env.stdout, "%s %s %s\n", time.Now().Format("15:04:05"), method, human)
	}
	if p.limit > 0 && p.n >= p.limit {
		p.stop()
	}
}

// watchOptions are the client handlers that print what watch receives.
func watchOptions(p *printer) mcp.ClientOptions {
	return mcp.ClientOptions{
		ToolListChangedHandler: func(_ context.Context, _ *mcp.ClientSession, n *mcp.ToolListChangedParams) {
			p.print("notifications/tools/list_changed", n, "")
		},
		PromptListChangedHandler: func(_ context.Context, _ *mcp.ClientSession, n *mcp.PromptListChangedParams) {
			p.print("notifications/prompts/list_changed", n, "")
		},
		ResourceListChangedHandler: func(_ context.Context, _ *mcp.ClientSession, n *mcp.ResourceListChangedParams) {
			p.print("notifications/resources/list_changed", n, "")
		},
		ResourceUpdatedHandler: func(_ context.Context, _ *mcp.ClientSession, n *mcp.ResourceUpdatedParams) {
			p.print("notifications/resources/updated", n, n.URI)
		},
		LoggingMessageHandler: func(_ context.Context, _ *mcp.ClientSession, n *mcp.LoggingMessageParams) {
			p.print("notifications/message", n, fmt.Sprintf("[%s] %s", n.Level, rawJSON(n.Data)))
		},
	}
}

func cmdWatch(ctx context.Context, c *cmdCtx) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	p := &printer{c: c, stop: stop, limit: c.o.limit}
	cctx, cancel := c.oneShot(ctx)
	s, err := c.connect(cctx, watchOptions(p))
	cancel()
	if err != nil {
		return err
	}
	defer s.Close()
	uris := c.positional
	if isModern(s.ClientSession) {
		caps := s.ServerCapabilities()
		filter := mcp.SubscriptionFilter{ResourceSubscriptions: uris}
		filter.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
		filter.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
		filter.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
		_, err := s.Listen(ctx, &mcp.SubscriptionsListenParams{Notifications: filter})
		if err != nil && !errors.Is(err, context.Canceled) {
			return s.fail(err, "subscriptions/listen")
		}
		return nil
	}
	for _, uri := range uris {
		sctx, cancel := c.oneShot(ctx)
		err := s.Subscribe(sctx, &mcp.SubscribeParams{URI: uri})
		cancel()
		if err != nil {
			return s.fail(err, "subscribing to "+uri)
		}
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case <-ctx.Done():
		return nil
	case err := <-done:
		if err != nil {
			return s.fail(err, "watching")
		}
		return &cliError{exit: exitUnreachable, code: "unreachable", msg: "the server ended the session"}
	}
}
