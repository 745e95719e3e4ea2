package mcp

import (
	"encoding/json"
)

// ---- Prompts ----

// Prompt describes a prompt template the server offers.
type Prompt struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// Name is the programmatic name of the prompt.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the prompt.
	Description string `json:"description,omitempty"`
	// Arguments are the arguments the prompt accepts.
	Arguments []*PromptArgument `json:"arguments,omitempty"`
	// Icons are icons of the prompt (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// PromptArgument describes an argument of a prompt.
type PromptArgument struct {
	// Name is the programmatic name of the argument.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the argument.
	Description string `json:"description,omitempty"`
	// Required reports whether the argument must be given.
	Required bool `json:"required,omitzero"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	// Role is the sender of the message.
	Role Role `json:"role"`
	// Content is the content of the message.
	Content *Content `json:"content"`
}

// ListPromptsParams are the params of prompts/list.
type ListPromptsParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListPromptsResult is the result of prompts/list.
type ListPromptsResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Prompts is one page of prompts.
	Prompts []*Prompt `json:"prompts"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// GetPromptParams are the params of prompts/get.
type GetPromptParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Name is the name of the prompt.
	Name string `json:"name"`
	// Arguments are the values of the prompt's arguments.
	Arguments map[string]string `json:"arguments,omitempty"`
	// InputResponses answer the InputRequests of a previous
	// InputRequiredResult (2026-07-28).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// RequestState echoes the RequestState of a previous
	// InputRequiredResult (2026-07-28).
	RequestState string `json:"requestState,omitempty"`
}

// GetPromptResult is the result of prompts/get. In 2026-07-28 it may
// instead be an input-required result; see [CallToolResult].
type GetPromptResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" or "input_required" in 2026-07-28 and empty
	// before.
	ResultType string `json:"resultType,omitempty"`
	// Description describes the rendered prompt.
	Description string `json:"description,omitempty"`
	// Messages are the messages of the rendered prompt.
	Messages []*PromptMessage `json:"messages"`
	// InputRequests are the requests the client must fulfil before retrying
	// (2026-07-28, input-required results only).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque state to echo on retry (2026-07-28,
	// input-required results only).
	RequestState string `json:"requestState,omitempty"`
}

// PromptListChangedParams are the params of
// notifications/prompts/list_changed.
type PromptListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}
