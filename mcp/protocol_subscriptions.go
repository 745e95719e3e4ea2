package mcp

import ()

// ---- Subscriptions (2026-07-28) ----

// SubscriptionFilter selects the notifications a subscriptions/listen
// stream delivers (2026-07-28).
type SubscriptionFilter struct {
	// ToolsListChanged asks for notifications/tools/list_changed.
	ToolsListChanged bool `json:"toolsListChanged,omitzero"`
	// PromptsListChanged asks for notifications/prompts/list_changed.
	PromptsListChanged bool `json:"promptsListChanged,omitzero"`
	// ResourcesListChanged asks for notifications/resources/list_changed.
	ResourcesListChanged bool `json:"resourcesListChanged,omitzero"`
	// ResourceSubscriptions lists resource URIs to receive
	// notifications/resources/updated for.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs lists tasks to receive notifications/tasks for (tasks
	// extension, see [TasksExtension]).
	TaskIDs []string `json:"taskIds,omitempty"`
}

// SubscriptionsListenParams are the params of subscriptions/listen
// (2026-07-28).
type SubscriptionsListenParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Notifications selects the notifications to receive.
	Notifications SubscriptionFilter `json:"notifications"`
}

// SubscriptionsListenResult is the result of subscriptions/listen, sent
// when the server ends the subscription gracefully; Meta.SubscriptionID
// names the subscription (2026-07-28).
type SubscriptionsListenResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete".
	ResultType string `json:"resultType,omitempty"`
}

// SubscriptionsAcknowledgedParams are the params of
// notifications/subscriptions/acknowledged, the first message of a
// subscription (2026-07-28).
type SubscriptionsAcknowledgedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Notifications is the part of the requested filter the server honors.
	Notifications SubscriptionFilter `json:"notifications"`
}
