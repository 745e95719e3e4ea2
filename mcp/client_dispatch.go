package mcp

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// clientMethods lists every method a client handles. Each feature's file
// registers its methods in an init function.
var clientMethods = map[string]*methodInfo[ClientSession]{}

func init() {
	methods := map[string]*methodInfo[ClientSession]{
		MethodPing: requestMethod(func(*ClientSession, context.Context, *PingParams) (*EmptyResult, error) {
			return &EmptyResult{}, nil
		}),
		NotificationCancelled: notificationMethod((*ClientSession).cancelledNotification),
		NotificationProgress:  notificationMethod((*ClientSession).progressNotification),
		NotificationToolListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ToolListChangedParams) {
			return o.ToolListChangedHandler
		})),
		NotificationPromptListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *PromptListChangedParams) {
			return o.PromptListChangedHandler
		})),
		NotificationResourceListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ResourceListChangedParams) {
			return o.ResourceListChangedHandler
		})),
		NotificationResourceUpdated: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ResourceUpdatedParams) {
			return o.ResourceUpdatedHandler
		})),
		NotificationLoggingMessage: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *LoggingMessageParams) {
			return o.LoggingMessageHandler
		})),
	}
	for name, m := range methods {
		clientMethods[name] = m
	}
}

// notifyVia makes a notification handler that calls the option handler
// pick selects, when set.
func notifyVia[P any](pick func(*ClientOptions) func(context.Context, *ClientSession, *P)) func(*ClientSession, context.Context, *P) {
	return func(cs *ClientSession, ctx context.Context, p *P) {
		if h := pick(&cs.client.opts); h != nil {
			h(ctx, cs, p)
		}
	}
}

// clientMethodHandler is the client's base MethodHandler.
func clientMethodHandler(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
	m := clientMethods[method]
	if m == nil {
		return nil, newError(CodeMethodNotFound, "method not found: %s", method)
	}
	return m.handle(ctx, cs, params)
}

// handle is the jsonrpc2 handler of a client's connection.
func (cs *ClientSession) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	m := clientMethods[req.Method]
	if req.IsNotification() {
		if m == nil || !m.notification {
			return nil, nil
		}
		params := m.newParams()
		if decodeRequestParams(req, params) == nil {
			_, _ = cs.client.methodHandler()(ctx, cs, req.Method, params)
		}
		return nil, nil
	}
	if m == nil || m.notification {
		return nil, newError(CodeMethodNotFound, "method not found: %s", req.Method)
	}
	params := m.newParams()
	if err := decodeRequestParams(req, params); err != nil {
		return nil, newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, err)
	}
	return cs.client.methodHandler()(ctx, cs, req.Method, params)
}

func (cs *ClientSession) cancelledNotification(_ context.Context, p *CancelledParams) {
	if id, ok := idFromRaw(p.RequestID); ok {
		cs.conn.CancelIncoming(id)
	}
}

func (cs *ClientSession) progressNotification(ctx context.Context, p *ProgressNotificationParams) {
	cs.mu.Lock()
	h := cs.progress[fmt.Sprint(p.ProgressToken)]
	cs.mu.Unlock()
	if h != nil {
		h(ctx, p)
		return
	}
	if h := cs.client.opts.ProgressNotificationHandler; h != nil {
		h(ctx, cs, p)
	}
}
