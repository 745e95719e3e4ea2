package mcp

import "github.com/gomcp/sdk/internal/strictjson"

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
	// Other holds the members extensions define, keyed by name, such as
	// the Events extension's "eventsListChanged" (see
	// [Server.AddListChangedFilter]).
	Other map[string]any `json:",inline"`
}

// subscriptionFilterWire is SubscriptionFilter without its methods: what
// they encode and decode, Other inline.
type subscriptionFilterWire SubscriptionFilter

// MarshalJSON encodes f as one JSON object, the members of Other beside
// the others, with encoding/json as with the SDK's codec.
func (f SubscriptionFilter) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal((*subscriptionFilterWire)(&f))
}

// UnmarshalJSON decodes a filter into f, the members it does not define
// into Other.
func (f *SubscriptionFilter) UnmarshalJSON(data []byte) error {
	return strictjson.UnmarshalTrusted(data, (*subscriptionFilterWire)(f))
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
