package mcp

import "context"

// serverMethods is the server's method table: every request and
// notification of the protocol a server handles, with its params and
// result types (through its handler's signature), the protocol revisions
// it exists in, the capability it belongs to and the params it requires.
// It is written once here and never changed; methods beyond the protocol's
// are added per server with Server.AddMethods. Every incoming message is
// served from it by Server.dispatch (server_dispatch.go).
var serverMethods = map[string]*methodInfo[ServerSession]{
	// Lifecycle (server_lifecycle.go).
	MethodInitialize:        requestMethod((*ServerSession).initialize, methodSpec[ServerSession]{until: lastHandshakeVersion}),
	MethodPing:              requestMethod((*ServerSession).ping, methodSpec[ServerSession]{until: lastHandshakeVersion, beforeInit: true}),
	MethodDiscover:          requestMethod((*ServerSession).discover, methodSpec[ServerSession]{since: firstPerRequestMeta}),
	NotificationInitialized: notificationMethod((*ServerSession).initializedNotification, methodSpec[ServerSession]{until: lastHandshakeVersion}),
	NotificationCancelled:   notificationMethod((*ServerSession).cancelledNotification, methodSpec[ServerSession]{}),
	NotificationProgress:    notificationMethod((*ServerSession).progressNotification, methodSpec[ServerSession]{}),
	NotificationRootsListChanged: notificationMethod((*ServerSession).rootsListChangedNotification,
		methodSpec[ServerSession]{until: lastHandshakeVersion}),

	// Tools (tool.go; tools/call may become a task, task_server.go).
	MethodListTools: requestMethod((*ServerSession).listTools, methodSpec[ServerSession]{capability: "tools"}),
	MethodCallTool:  callToolMethod(methodSpec[ServerSession]{capability: "tools", validate: requireToolName}),

	// Prompts (prompt.go).
	MethodListPrompts: requestMethod((*ServerSession).listPrompts, methodSpec[ServerSession]{capability: "prompts"}),
	MethodGetPrompt:   requestMethod((*ServerSession).getPrompt, methodSpec[ServerSession]{capability: "prompts", validate: requirePromptName}),

	// Resources (resource.go, resource_read.go, subscribe.go).
	MethodListResources:         requestMethod((*ServerSession).listResources, methodSpec[ServerSession]{capability: "resources"}),
	MethodListResourceTemplates: requestMethod((*ServerSession).listResourceTemplates, methodSpec[ServerSession]{capability: "resources"}),
	MethodReadResource:          requestMethod((*ServerSession).readResource, methodSpec[ServerSession]{capability: "resources", validate: requireResourceURI}),
	MethodSubscribe: requestMethod((*ServerSession).subscribe, methodSpec[ServerSession]{
		until: lastHandshakeVersion, capability: "resources.subscribe",
		enabled: subscriptionsEnabled, unsupported: "this server does not support resource subscriptions",
	}),
	MethodUnsubscribe: requestMethod((*ServerSession).unsubscribe, methodSpec[ServerSession]{
		until: lastHandshakeVersion, capability: "resources.subscribe",
		enabled: subscriptionsEnabled, unsupported: "this server does not support resource subscriptions",
	}),
	MethodSubscriptionsListen: requestMethod((*ServerSession).subscriptionsListen, methodSpec[ServerSession]{since: firstPerRequestMeta}),

	// Completion (completion.go) and logging (logging.go).
	MethodComplete:        requestMethod((*ServerSession).complete, methodSpec[ServerSession]{capability: "completions", validate: requireCompletionRef}),
	MethodSetLoggingLevel: requestMethod((*ServerSession).setLoggingLevel, methodSpec[ServerSession]{until: lastHandshakeVersion, capability: "logging"}),

	// In 2025-11-25 tasks are core methods (task_legacy_server.go). Since
	// 2026-07-28 tasks/get, tasks/update and tasks/cancel are the tasks
	// extension's, added with Server.AddExtension (task_server.go).
	MethodGetTask:        requestMethod((*ServerSession).getLegacyTask, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks"}),
	MethodCancelTask:     requestMethod((*ServerSession).cancelLegacyTask, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks.cancel"}),
	MethodGetTaskPayload: requestMethod((*ServerSession).taskPayload, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks"}),
	MethodListTasks:      requestMethod((*ServerSession).listLegacyTasks, methodSpec[ServerSession]{since: Version20251125, until: lastHandshakeVersion, capability: "tasks.list"}),
}

// subscriptionsEnabled reports whether the session's server takes
// resources/subscribe.
func subscriptionsEnabled(ss *ServerSession) bool { return ss.server.subscriptionsSupported() }

// callToolMethod is the row of tools/call: a call of a tool that supports
// tasks, from a 2026-07-28 client that declared the tasks extension or a
// task-augmented call of 2025-11-25, may be answered with a task rather
// than a CallToolResult.
func callToolMethod(spec methodSpec[ServerSession]) *methodInfo[ServerSession] {
	m := requestMethod((*ServerSession).callTool, spec)
	synchronous := m.handle
	m.handle = func(ctx context.Context, ss *ServerSession, params any) (any, error) {
		if res, ok, err := ss.callToolAsTask(ctx, params.(*CallToolParams)); ok {
			return res, err
		}
		if res, ok, err := ss.callToolAsLegacyTask(ctx, params.(*CallToolParams)); ok {
			return res, err
		}
		return synchronous(ctx, ss, params)
	}
	return m
}

// Checks of required params (the spec's required members).

func requireToolName(params any) error {
	if params.(*CallToolParams).Name == "" {
		return newError(CodeInvalidParams, "missing tool name: tools/call needs params.name")
	}
	return nil
}

func requirePromptName(params any) error {
	if params.(*GetPromptParams).Name == "" {
		return newError(CodeInvalidParams, "missing prompt name: prompts/get needs params.name")
	}
	return nil
}

func requireResourceURI(params any) error {
	if params.(*ReadResourceParams).URI == "" {
		return newError(CodeInvalidParams, "missing resource uri: resources/read needs params.uri")
	}
	return nil
}

func requireCompletionRef(params any) error {
	p := params.(*CompleteParams)
	if p.Ref == nil {
		return newError(CodeInvalidParams, "Invalid completion request: missing ref")
	}
	return nil
}
