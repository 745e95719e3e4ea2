package main

import (
	"context"
	"log"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// newServer builds the server with every fixture the suite expects, its
// event type offering poll and push only, its state its own.
func newServer() *mcp.Server { return newServerWith(nil, nil) }

// newServerWith is newServer with hooks, if not nil, as test.tick's
// webhook delivery (events_conformance.go): the caller runs hooks.svc with
// hooks.es. Under -conformance-events it adds the suite's diagnostic
// controls too. scale, if not nil, is the state shared with other
// instances (scaleout.go).
func newServerWith(hooks *webhookFixture, scale *scaleOut) *mcp.Server {
	opts := &mcp.ServerOptions{
		Title:        "gomcp everything server",
		Description:  "Serves every fixture of the MCP conformance suite.",
		Instructions: "A test server for the MCP conformance suite.",
		Capabilities: &mcp.ServerCapabilities{
			Logging:     &mcp.LoggingCapability{},
			Completions: &mcp.CompletionCapabilities{},
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{Subscribe: true, ListChanged: true},
		},
		// Subscriptions are kept by the SDK; the handlers only accept them.
		SubscribeHandler:   func(context.Context, *mcp.ServerSession, *mcp.SubscribeParams) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.ServerSession, *mcp.UnsubscribeParams) error { return nil },
		// Tasks (tools_tasks.go): clients poll every 100ms.
		Tasks: &mcp.TaskOptions{PollInterval: 100 * time.Millisecond},
	}
	scale.tuneServer(opts) // scaleout.go: shared state for -redis
	srv := mcp.NewServer("everything-server", "1.0.0", opts)
	srv.AddTools(contentTools()...)
	srv.AddTools(legacyAskTools()...)
	srv.AddTools(modernTools()...)
	srv.AddTools(inputRequiredTools()...)
	srv.AddTools(jsonSchemaTool(), reconnectionTool())
	srv.AddTools(taskTools()...)
	srv.AddResources(resources()...)
	srv.AddResourceTemplates(resourceTemplates()...)
	srv.AddPrompts(prompts()...)
	addSkills(srv)
	if hooks == nil {
		addEvents(srv, nil, scale) // events.go
		return srv
	}
	hooks.es = addEvents(srv, hooks.svc, scale)
	if hooks.conformance {
		srv.AddTools(hooks.conformanceControls()...)
	}
	return srv
}

// notifyWatchedResource tells subscribers of test://watched-resource, every
// interval until ctx is done, that it changed.
func notifyWatchedResource(ctx context.Context, srv *mcp.Server, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedParams{URI: watchedResourceURI}); err != nil && ctx.Err() == nil {
				log.Printf("everything-server: resource update: %v", err)
			}
		}
	}
}
