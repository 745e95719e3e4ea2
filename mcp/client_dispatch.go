package mcp

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Every request and notification a client receives goes through
// ClientSession.handle, and every input request of a 2026-07-28
// input-required result through ClientSession.answerInput: look the
// method up in the table (clientMethods), decode its params once,
// check the revision, then run the receiving middleware and the handler
// with panic recovery.

// clientMethodHandler is the client's base MethodHandler: it runs the
// method's handler. Receiving middleware wraps it.
func clientMethodHandler(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
	m := cs.client.lookup(method)
	if m == nil {
		return nil, newError(CodeMethodNotFound, "method not found: %s", method)
	}
	return m.handle(ctx, cs, params)
}

// lookup returns the row of method in the client's method table.
func (c *Client) lookup(method string) *methodInfo[ClientSession] {
	return c.methods.lookup(clientMethods, method)
}

// handle is the jsonrpc2 handler of a client's connection: the client's
// one decode-and-route step.
func (cs *ClientSession) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	m := cs.client.lookup(req.Method)
	notification := req.IsNotification()
	if m == nil || m.notification != notification {
		if notification {
			return nil, nil // unknown notifications are ignored
		}
		return nil, newError(CodeMethodNotFound, "method not found: %s", req.Method)
	}
	params := m.newParams()
	var err error
	if err = decodeRequestParams(req, params); err != nil {
		if notification {
			return nil, nil
		}
		return nil, newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, err)
	}
	if v := cs.version; v != "" && !m.existsIn(v) && !notification {
		return nil, notInRevision(req.Method, v)
	}
	if !notification {
		if m, err = cs.client.admit(req.Method, m, cs); err != nil { // method_capability.go
			return nil, err
		}
	}
	if err := m.check(params); err != nil {
		if notification {
			return nil, nil
		}
		return nil, err
	}
	res, err := cs.client.invoke(incomingContext(ctx, req, nil, cs), cs, req.Method, params)
	if notification {
		if err != nil {
			cs.client.logger().Debug("mcp: notification handler failed", "method", req.Method, "error", err)
		}
		return nil, nil
	}
	return res, err
}

// answerInput serves one input request of an input-required result (or
// of a task) with the client's handlers, as handle serves a request.
func (cs *ClientSession) answerInput(ctx context.Context, method string, params any) (any, error) {
	m := cs.client.lookup(method)
	if m == nil || m.notification {
		return nil, fmt.Errorf("the server asked for unknown input %q", method)
	}
	if params == nil {
		params = m.newParams()
	}
	rc := &requestContext{Context: ctx, method: method, client: cs}
	return cs.client.invoke(rc, cs, method, params)
}

// invoke runs the receiving middleware and the method's handler. Unless
// recovery is off, a panic becomes an internal error.
func (c *Client) invoke(ctx context.Context, cs *ClientSession, method string, params any) (res any, err error) {
	h := c.methodHandler()
	if !c.opts.DisablePanicRecovery {
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, panicError(c.logger(), method, v)
			}
		}()
	}
	return h(ctx, cs, method, params)
}

func (cs *ClientSession) ping(context.Context, *PingParams) (*EmptyResult, error) {
	return &EmptyResult{}, nil
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

// clientMethods is the client's method table: every request and
// notification of the protocol a client handles, with its params and
// result types (through its handler's signature), the protocol revisions
// it exists in and the capability it belongs to. It is written once here
// and never changed; methods beyond the protocol's are added per client
// with Client.AddMethods. Every incoming message, and every input request
// of a 2026-07-28 input-required result, is served from it
// (ClientSession.handle, ClientSession.answerInput).
var clientMethods = map[string]*methodInfo[ClientSession]{
	MethodPing:            requestMethod((*ClientSession).ping, methodSpec[ClientSession]{until: lastHandshakeVersion}),
	NotificationCancelled: notificationMethod((*ClientSession).cancelledNotification, methodSpec[ClientSession]{}),
	NotificationProgress:  notificationMethod((*ClientSession).progressNotification, methodSpec[ClientSession]{}),

	// Requests of the server (server_ask.go); since 2026-07-28 input requests.
	MethodListRoots:     requestMethod((*ClientSession).listRoots, methodSpec[ClientSession]{capability: "roots"}),
	MethodCreateMessage: requestMethod((*ClientSession).createMessage, methodSpec[ClientSession]{capability: "sampling"}),
	MethodElicit:        requestMethod((*ClientSession).elicit, methodSpec[ClientSession]{since: Version20250618, capability: "elicitation"}),
	NotificationElicitationComplete: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ElicitationCompleteParams) {
		return o.ElicitationCompleteHandler
	}), methodSpec[ClientSession]{since: Version20251125, until: lastHandshakeVersion}),

	// Changes on the server (list changes, resource updates, log messages,
	// listen streams).
	NotificationToolListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ToolListChangedParams) {
		return o.ToolListChangedHandler
	}), methodSpec[ClientSession]{}),
	NotificationPromptListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *PromptListChangedParams) {
		return o.PromptListChangedHandler
	}), methodSpec[ClientSession]{}),
	NotificationResourceListChanged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ResourceListChangedParams) {
		return o.ResourceListChangedHandler
	}), methodSpec[ClientSession]{}),
	NotificationResourceUpdated: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *ResourceUpdatedParams) {
		return o.ResourceUpdatedHandler
	}), methodSpec[ClientSession]{}),
	NotificationLoggingMessage: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *LoggingMessageParams) {
		return o.LoggingMessageHandler
	}), methodSpec[ClientSession]{}),
	NotificationSubscriptionsAcknowledged: notificationMethod(notifyVia(func(o *ClientOptions) func(context.Context, *ClientSession, *SubscriptionsAcknowledgedParams) {
		return o.SubscriptionsAcknowledgedHandler
	}), methodSpec[ClientSession]{since: firstPerRequestMeta}),
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
