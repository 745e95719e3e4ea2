package mcp

import "github.com/gomcp/sdk/internal/strictjson"

// Capabilities: what a client or server supports.
//
// Presence matters on the wire: an empty object means "supported", an absent
// member means "not supported". Each capability is therefore a pointer; a
// non-nil pointer to an empty struct encodes as {}.

// ClientCapabilities are the optional features a client supports. Before
// 2026-07-28 the client sends them once, in initialize; since 2026-07-28 it
// sends them with every request, in _meta.
type ClientCapabilities struct {
	// Experimental holds non-standard capabilities, keyed by name; each value
	// is a JSON object.
	Experimental map[string]any `json:"experimental,omitempty"`
	// Extensions holds the MCP extensions the client supports, keyed by
	// extension identifier; each value is a settings object, {} for none
	// (2026-07-28).
	Extensions map[string]any `json:"extensions,omitempty"`
	// Roots is present if the client can list its roots.
	Roots *RootsCapability `json:"roots,omitzero"`
	// Sampling is present if the client can sample an LLM.
	Sampling *SamplingCapability `json:"sampling,omitzero"`
	// Elicitation is present if the client can ask the user for input
	// (2025-06-18).
	Elicitation *ElicitationCapability `json:"elicitation,omitzero"`
	// Tasks is present if the client supports task-augmented requests
	// (2025-11-25; an extension since 2026-07-28).
	Tasks *ClientTasksCapability `json:"tasks,omitzero"`
}

// RootsCapability declares support for listing roots.
type RootsCapability struct {
	// ListChanged reports whether the client sends
	// notifications/roots/list_changed (2024-11-05 to 2025-11-25).
	ListChanged bool `json:"listChanged,omitzero"`
}

// SamplingCapability declares support for sampling.
type SamplingCapability struct {
	// Context is present if the client supports the includeContext parameter
	// (2025-11-25).
	Context *SamplingContextCapability `json:"context,omitzero"`
	// Tools is present if the client supports tools and toolChoice in
	// sampling requests (2025-11-25).
	Tools *SamplingToolsCapability `json:"tools,omitzero"`
}

// SamplingContextCapability declares support for includeContext in sampling
// requests (2025-11-25).
type SamplingContextCapability struct{}

// SamplingToolsCapability declares support for tool use in sampling requests
// (2025-11-25).
type SamplingToolsCapability struct{}

// ElicitationCapability declares support for elicitation (2025-06-18). An
// empty ElicitationCapability means form mode only.
type ElicitationCapability struct {
	// Form is present if the client supports form-mode elicitation
	// (2025-11-25).
	Form *FormElicitationCapability `json:"form,omitzero"`
	// URL is present if the client supports URL-mode elicitation
	// (2025-11-25).
	URL *URLElicitationCapability `json:"url,omitzero"`
}

// FormElicitationCapability declares support for form-mode elicitation
// (2025-11-25).
type FormElicitationCapability struct{}

// URLElicitationCapability declares support for URL-mode elicitation
// (2025-11-25).
type URLElicitationCapability struct{}

// ClientTasksCapability declares the task features of a client
// (2025-11-25).
type ClientTasksCapability struct {
	// List is present if the client supports tasks/list.
	List *TasksListCapability `json:"list,omitzero"`
	// Cancel is present if the client supports tasks/cancel.
	Cancel *TasksCancelCapability `json:"cancel,omitzero"`
	// Requests lists the requests that may be task-augmented.
	Requests *ClientTaskRequests `json:"requests,omitzero"`
}

// ClientTaskRequests lists the server-to-client requests a client accepts as
// tasks (2025-11-25).
type ClientTaskRequests struct {
	// Elicitation covers elicitation requests.
	Elicitation *TaskElicitationRequests `json:"elicitation,omitzero"`
	// Sampling covers sampling requests.
	Sampling *TaskSamplingRequests `json:"sampling,omitzero"`
}

// TaskElicitationRequests declares task support for elicitation requests
// (2025-11-25).
type TaskElicitationRequests struct {
	// Create is present if elicitation/create may be task-augmented.
	Create *TaskRequestCapability `json:"create,omitzero"`
}

// TaskSamplingRequests declares task support for sampling requests
// (2025-11-25).
type TaskSamplingRequests struct {
	// CreateMessage is present if sampling/createMessage may be
	// task-augmented.
	CreateMessage *TaskRequestCapability `json:"createMessage,omitzero"`
}

// ServerCapabilities are the optional features a server supports, sent in
// the initialize result or (2026-07-28) the server/discover result.
type ServerCapabilities struct {
	// Experimental holds non-standard capabilities, keyed by name; each value
	// is a JSON object.
	Experimental map[string]any `json:"experimental,omitempty"`
	// Extensions holds the MCP extensions the server supports, keyed by
	// extension identifier; each value is a settings object, {} for none
	// (2026-07-28).
	Extensions map[string]any `json:"extensions,omitempty"`
	// Logging is present if the server can send log messages.
	Logging *LoggingCapability `json:"logging,omitzero"`
	// Completions is present if the server offers argument completion
	// (2025-03-26).
	Completions *CompletionCapabilities `json:"completions,omitzero"`
	// Prompts is present if the server offers prompts.
	Prompts *PromptCapabilities `json:"prompts,omitzero"`
	// Resources is present if the server offers resources.
	Resources *ResourceCapabilities `json:"resources,omitzero"`
	// Tools is present if the server offers tools.
	Tools *ToolCapabilities `json:"tools,omitzero"`
	// Tasks is present if the server supports task-augmented requests
	// (2025-11-25; an extension since 2026-07-28).
	Tasks *ServerTasksCapability `json:"tasks,omitzero"`
	// Other holds the members beyond the ones above, keyed by name: the
	// top-level capabilities of extension prototypes that predate the
	// extensions map and that deployed peers still read, such as the
	// Events extension's "events" (see [Server.AddCapability]). Each value
	// is a JSON object. Prefer Extensions.
	Other map[string]any `json:",inline"`
}

// serverCapabilitiesWire is ServerCapabilities without its methods: what
// they encode and decode, Other inline.
type serverCapabilitiesWire ServerCapabilities

// MarshalJSON encodes c as one JSON object, the members of Other beside
// the others, with encoding/json as with the SDK's codec.
func (c ServerCapabilities) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal((*serverCapabilitiesWire)(&c))
}

// UnmarshalJSON decodes a capabilities object into c, the members it does
// not define into Other.
func (c *ServerCapabilities) UnmarshalJSON(data []byte) error {
	return strictjson.UnmarshalTrusted(data, (*serverCapabilitiesWire)(c))
}

// LoggingCapability declares that a server sends log messages.
type LoggingCapability struct{}

// CompletionCapabilities declares that a server offers argument completion
// (2025-03-26).
type CompletionCapabilities struct{}

// PromptCapabilities declares that a server offers prompts.
type PromptCapabilities struct {
	// ListChanged reports whether the server notifies changes of the prompt
	// list.
	ListChanged bool `json:"listChanged,omitzero"`
}

// ResourceCapabilities declares that a server offers resources.
type ResourceCapabilities struct {
	// Subscribe reports whether clients can subscribe to resource updates.
	Subscribe bool `json:"subscribe,omitzero"`
	// ListChanged reports whether the server notifies changes of the
	// resource list.
	ListChanged bool `json:"listChanged,omitzero"`
}

// ToolCapabilities declares that a server offers tools.
type ToolCapabilities struct {
	// ListChanged reports whether the server notifies changes of the tool
	// list.
	ListChanged bool `json:"listChanged,omitzero"`
}

// ServerTasksCapability declares the task features of a server
// (2025-11-25).
type ServerTasksCapability struct {
	// List is present if the server supports tasks/list.
	List *TasksListCapability `json:"list,omitzero"`
	// Cancel is present if the server supports tasks/cancel.
	Cancel *TasksCancelCapability `json:"cancel,omitzero"`
	// Requests lists the requests that may be task-augmented.
	Requests *ServerTaskRequests `json:"requests,omitzero"`
}

// ServerTaskRequests lists the client-to-server requests a server accepts
// as tasks (2025-11-25).
type ServerTaskRequests struct {
	// Tools covers tool requests.
	Tools *TaskToolRequests `json:"tools,omitzero"`
}

// TaskToolRequests declares task support for tool requests (2025-11-25).
type TaskToolRequests struct {
	// Call is present if tools/call may be task-augmented.
	Call *TaskRequestCapability `json:"call,omitzero"`
}

// TasksListCapability declares support for tasks/list (2025-11-25).
type TasksListCapability struct{}

// TasksCancelCapability declares support for tasks/cancel (2025-11-25).
type TasksCancelCapability struct{}

// TaskRequestCapability declares that one kind of request may be
// task-augmented (2025-11-25).
type TaskRequestCapability struct{}
