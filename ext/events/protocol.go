package events

import (
	"encoding/json"

	"github.com/gomcp/sdk/jsonschema"
	"github.com/gomcp/sdk/mcp"
)

// ExtensionID is the identifier of the Events extension, the key of its
// entry in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/events"

// LegacyCapability is the top-level member of a server's capabilities that
// the extension's prototypes declared and deployed clients still read
// (SEP-3415, Backward Compatibility). A server declares it beside the
// extensions entry; it is not part of the extension.
const LegacyCapability = "events"

// ListenFilter is the member of the subscriptions/listen filter that asks
// for NotificationListChanged.
const ListenFilter = "eventsListChanged"

// Methods and notifications of the extension.
const (
	MethodList        = "events/list"
	MethodPoll        = "events/poll"
	MethodStream      = "events/stream"
	MethodSubscribe   = "events/subscribe"
	MethodUnsubscribe = "events/unsubscribe"

	NotificationListChanged = "notifications/events/list_changed"
	NotificationActive      = "notifications/events/active"
	NotificationEvent       = "notifications/events/event"
	NotificationHeartbeat   = "notifications/events/heartbeat"
	NotificationError       = "notifications/events/error"
	NotificationTerminated  = "notifications/events/terminated"
)

// Delivery modes of an event type.
const (
	DeliveryPoll    = "poll"
	DeliveryPush    = "push"
	DeliveryWebhook = "webhook"
)

// Settings are the extension's entry in a server's capabilities.
type Settings struct {
	// ListChanged tells that the server sends NotificationListChanged on
	// subscriptions/listen streams that ask for it.
	ListChanged bool `json:"listChanged,omitzero"`
}

// An EventType describes one type of event in events/list.
type EventType struct {
	// Name identifies the type, such as "email.received".
	Name string `json:"name"`
	// Description tells a model and a user what the events are.
	Description string `json:"description"`
	// Delivery lists the modes the type offers: a non-empty subset of
	// DeliveryPoll, DeliveryPush and DeliveryWebhook.
	Delivery []string `json:"delivery"`
	// InputSchema is the schema of a subscription's arguments.
	InputSchema *jsonschema.Schema `json:"inputSchema"`
	// PayloadSchema is the schema of an occurrence's data.
	PayloadSchema *jsonschema.Schema `json:"payloadSchema"`
	// Meta is the type's _meta.
	Meta map[string]any `json:"_meta,omitempty"`
}

// An Occurrence is one event: an entry of a poll result, the params of
// NotificationEvent, a webhook body.
type Occurrence struct {
	// EventID identifies the occurrence; clients deduplicate on it.
	EventID string `json:"eventId"`
	// Name is the event type's name.
	Name string `json:"name"`
	// Timestamp is when the event occurred (RFC 3339).
	Timestamp string `json:"timestamp"`
	// Data is the payload, a JSON object that conforms to the type's
	// payload schema.
	Data json.RawMessage `json:"data"`
	// Cursor is the position after this occurrence, on push streams and
	// webhooks (poll results carry it once, beside the events). Nil means
	// the member is absent.
	Cursor *string `json:"cursor,omitempty"`
	// Meta is the occurrence's _meta; on a push stream it carries the
	// subscription id.
	Meta mcp.Meta `json:"_meta,omitzero"`
}

// ListParams are the params of events/list.
type ListParams struct {
	Meta   mcp.Meta `json:"_meta,omitzero"`
	Cursor string   `json:"cursor,omitempty"`
}

// ListResult is the result of events/list.
type ListResult struct {
	Meta       mcp.Meta     `json:"_meta,omitzero"`
	ResultType string       `json:"resultType,omitempty"`
	Events     []*EventType `json:"events"`
	NextCursor string       `json:"nextCursor,omitempty"`
}

// PollParams are the params of events/poll.
type PollParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	// Name is the event type's name.
	Name string `json:"name"`
	// Arguments are the subscription's arguments, checked against the
	// type's input schema; absent means {}.
	Arguments json.RawMessage `json:"arguments,omitzero"`
	// Cursor is where to continue; nil (null or absent) means from now.
	Cursor *string `json:"cursor"`
	// MaxAgeMs, if set, is the replay floor: occurrences older than that
	// are skipped (and the result is truncated).
	MaxAgeMs *int64 `json:"maxAgeMs,omitempty"`
	// MaxEvents caps the batch; zero means the server's default.
	MaxEvents int `json:"maxEvents,omitzero"`
}

// PollResult is the result of events/poll.
type PollResult struct {
	Meta       mcp.Meta      `json:"_meta,omitzero"`
	ResultType string        `json:"resultType,omitempty"`
	Events     []*Occurrence `json:"events"`
	// Cursor is where the next poll continues from; nil (null) means the
	// type offers no replay, and must not be kept.
	Cursor *string `json:"cursor"`
	// Truncated tells that occurrences between the request's cursor and
	// these were dropped: the single gap signal.
	Truncated bool `json:"truncated"`
	// HasMore tells the client to poll again at once.
	HasMore bool `json:"hasMore"`
	// NextPollMs is how long the server suggests waiting before the next
	// poll when HasMore is false.
	NextPollMs int64 `json:"nextPollMs"`
}

// StreamParams are the params of events/stream.
type StreamParams struct {
	Meta      mcp.Meta        `json:"_meta,omitzero"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitzero"`
	Cursor    *string         `json:"cursor"`
	MaxAgeMs  *int64          `json:"maxAgeMs,omitempty"`
}

// StreamResult is the result of events/stream: the last message of a
// stream the server ended itself. It carries only the subscription id.
type StreamResult struct {
	Meta       mcp.Meta `json:"_meta,omitzero"`
	ResultType string   `json:"resultType,omitempty"`
}

// ActiveParams are the params of NotificationActive: the first message of
// a push stream, and later a gap signal (Truncated).
type ActiveParams struct {
	Meta      mcp.Meta `json:"_meta,omitzero"`
	Cursor    *string  `json:"cursor"`
	Truncated bool     `json:"truncated"`
}

// HeartbeatParams are the params of NotificationHeartbeat: the position
// the server has checked up to.
type HeartbeatParams struct {
	Meta   mcp.Meta `json:"_meta,omitzero"`
	Cursor *string  `json:"cursor"`
}

// ErrorObject is the nested error of NotificationError,
// NotificationTerminated and the terminated webhook envelope.
type ErrorObject struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// ErrorParams are the params of NotificationError (the stream stays open)
// and NotificationTerminated (the subscription is over).
type ErrorParams struct {
	Meta  mcp.Meta     `json:"_meta,omitzero"`
	Error *ErrorObject `json:"error"`
}

// ListChangedParams are the params of NotificationListChanged.
type ListChangedParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
}

// SubscribeParams are the params of events/subscribe (webhook delivery).
type SubscribeParams struct {
	Meta      mcp.Meta        `json:"_meta,omitzero"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitzero"`
	Delivery  *WebhookTarget  `json:"delivery"`
	Cursor    *string         `json:"cursor,omitempty"`
	MaxAgeMs  *int64          `json:"maxAgeMs,omitempty"`
	// TTLMs is the suggested lifetime; JSON null asks for no expiry, so
	// it is kept raw.
	TTLMs json.RawMessage `json:"ttlMs,omitzero"`
}

// WebhookTarget is the delivery member of events/subscribe and
// events/unsubscribe.
type WebhookTarget struct {
	Mode   string `json:"mode,omitempty"`
	URL    string `json:"url"`
	Secret string `json:"secret,omitempty"`
}

// UnsubscribeParams are the params of events/unsubscribe.
type UnsubscribeParams struct {
	Meta      mcp.Meta        `json:"_meta,omitzero"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitzero"`
	Delivery  *WebhookTarget  `json:"delivery"`
}
