package mcp

import "context"

// clientMethods is the client's method table: every request and
// notification of the protocol a client handles, with its params and
// result types (through its handler's signature), the protocol revisions
// it exists in and the capability it belongs to. It is written once here
// and never changed; methods beyond the protocol's are added per client
// with Client.AddMethods. Every incoming message, and every input request
// of a 2026-07-28 input-required result, is served from it
// (client_dispatch.go).
var clientMethods = map[string]*methodInfo[ClientSession]{
	MethodPing:            requestMethod((*ClientSession).ping, methodSpec[ClientSession]{until: lastHandshakeVersion}),
	NotificationCancelled: notificationMethod((*ClientSession).cancelledNotification, methodSpec[ClientSession]{}),
	NotificationProgress:  notificationMethod((*ClientSession).progressNotification, methodSpec[ClientSession]{}),

	// Requests of the server (ask.go); since 2026-07-28 input requests.
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
