package mcp

// Method names of requests, as they appear in the "method" member of a
// JSON-RPC request.
const (
	// MethodInitialize starts a session (client to server; 2024-11-05 to
	// 2025-11-25).
	MethodInitialize = "initialize"
	// MethodPing checks that the peer is alive (both directions; 2024-11-05 to
	// 2025-11-25).
	MethodPing = "ping"
	// MethodDiscover asks a server for its versions, capabilities and identity
	// (2026-07-28).
	MethodDiscover = "server/discover"

	// MethodListTools lists the server's tools.
	MethodListTools = "tools/list"
	// MethodCallTool invokes a tool.
	MethodCallTool = "tools/call"

	// MethodListPrompts lists the server's prompts.
	MethodListPrompts = "prompts/list"
	// MethodGetPrompt renders a prompt with arguments.
	MethodGetPrompt = "prompts/get"

	// MethodListResources lists the server's resources.
	MethodListResources = "resources/list"
	// MethodListResourceTemplates lists the server's resource templates.
	MethodListResourceTemplates = "resources/templates/list"
	// MethodReadResource reads a resource.
	MethodReadResource = "resources/read"
	// MethodSubscribe subscribes to updates of one resource (2024-11-05 to
	// 2025-11-25; replaced by [MethodSubscriptionsListen]).
	MethodSubscribe = "resources/subscribe"
	// MethodUnsubscribe cancels a resource subscription (2024-11-05 to
	// 2025-11-25).
	MethodUnsubscribe = "resources/unsubscribe"
	// MethodSubscriptionsListen opens a long-lived stream of change
	// notifications (2026-07-28).
	MethodSubscriptionsListen = "subscriptions/listen"

	// MethodComplete asks for argument completions.
	MethodComplete = "completion/complete"
	// MethodSetLoggingLevel sets the minimum level of log notifications
	// (2024-11-05 to 2025-11-25; replaced by the logLevel _meta key).
	MethodSetLoggingLevel = "logging/setLevel"

	// MethodCreateMessage asks the client to sample an LLM (server to client,
	// or an input request in 2026-07-28).
	MethodCreateMessage = "sampling/createMessage"
	// MethodListRoots asks the client for its roots (server to client, or an
	// input request in 2026-07-28).
	MethodListRoots = "roots/list"
	// MethodElicit asks the client to collect information from the user
	// (2025-06-18; server to client, or an input request in 2026-07-28).
	MethodElicit = "elicitation/create"

	// MethodGetTask polls the state of a task (2025-11-25).
	MethodGetTask = "tasks/get"
	// MethodGetTaskPayload waits for and returns the result of a task
	// (2025-11-25).
	MethodGetTaskPayload = "tasks/result"
	// MethodCancelTask cancels a task (2025-11-25).
	MethodCancelTask = "tasks/cancel"
	// MethodListTasks lists tasks (2025-11-25).
	MethodListTasks = "tasks/list"
)

// Method names of notifications.
const (
	// NotificationInitialized tells the server the handshake is complete
	// (2024-11-05 to 2025-11-25).
	NotificationInitialized = "notifications/initialized"
	// NotificationCancelled cancels an in-flight request.
	NotificationCancelled = "notifications/cancelled"
	// NotificationProgress reports progress of a request.
	NotificationProgress = "notifications/progress"
	// NotificationLoggingMessage carries a log message from server to client.
	NotificationLoggingMessage = "notifications/message"
	// NotificationToolListChanged reports that the tool list changed.
	NotificationToolListChanged = "notifications/tools/list_changed"
	// NotificationPromptListChanged reports that the prompt list changed.
	NotificationPromptListChanged = "notifications/prompts/list_changed"
	// NotificationResourceListChanged reports that the resource list changed.
	NotificationResourceListChanged = "notifications/resources/list_changed"
	// NotificationResourceUpdated reports that a subscribed resource changed.
	NotificationResourceUpdated = "notifications/resources/updated"
	// NotificationRootsListChanged reports that the client's roots changed
	// (2024-11-05 to 2025-11-25).
	NotificationRootsListChanged = "notifications/roots/list_changed"
	// NotificationElicitationComplete reports that a URL-mode elicitation
	// finished (2025-11-25 only).
	NotificationElicitationComplete = "notifications/elicitation/complete"
	// NotificationTaskStatus reports a change of a task's status (2025-11-25).
	NotificationTaskStatus = "notifications/tasks/status"
	// NotificationSubscriptionsAcknowledged is the first message on a
	// subscriptions/listen stream (2026-07-28).
	NotificationSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"
)
