package mcp

import (
	"encoding/json"
)

// ---- Resources ----

// Resource describes a resource the server offers.
type Resource struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource.
	URI string `json:"uri"`
	// Name is the programmatic name of the resource.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the resource.
	Description string `json:"description,omitempty"`
	// MIMEType is the media type of the resource, if known.
	MIMEType string `json:"mimeType,omitempty"`
	// Size is the size of the resource in bytes, if known.
	Size *int64 `json:"size,omitzero"`
	// Annotations are hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Icons are icons of the resource (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// ResourceTemplate describes a family of resources by a URI template
// (RFC 6570).
type ResourceTemplate struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URITemplate is the URI template of the resources.
	URITemplate string `json:"uriTemplate"`
	// Name is the programmatic name of the template.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the template.
	Description string `json:"description,omitempty"`
	// MIMEType is the media type of all matching resources, if they share
	// one.
	MIMEType string `json:"mimeType,omitempty"`
	// Annotations are hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Icons are icons of the template (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// ListResourcesParams are the params of resources/list.
type ListResourcesParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListResourcesResult is the result of resources/list.
type ListResourcesResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Resources is one page of resources.
	Resources []*Resource `json:"resources"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// ListResourceTemplatesParams are the params of resources/templates/list.
type ListResourceTemplatesParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListResourceTemplatesResult is the result of resources/templates/list.
type ListResourceTemplatesResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// ResourceTemplates is one page of resource templates.
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// ReadResourceParams are the params of resources/read.
type ReadResourceParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource.
	URI string `json:"uri"`
	// InputResponses answer the InputRequests of a previous
	// InputRequiredResult (2026-07-28).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// RequestState echoes the RequestState of a previous
	// InputRequiredResult (2026-07-28).
	RequestState string `json:"requestState,omitempty"`
}

// ReadResourceResult is the result of resources/read. In 2026-07-28 it may
// instead be an input-required result; see [CallToolResult].
type ReadResourceResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" or "input_required" in 2026-07-28 and empty
	// before.
	ResultType string `json:"resultType,omitempty"`
	// Contents are the contents of the resource (several for a directory,
	// for example).
	Contents []*ResourceContents `json:"contents"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
	// InputRequests are the requests the client must fulfil before retrying
	// (2026-07-28, input-required results only).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque state to echo on retry (2026-07-28,
	// input-required results only).
	RequestState string `json:"requestState,omitempty"`
}

// SubscribeParams are the params of resources/subscribe (2024-11-05 to
// 2025-11-25).
type SubscribeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource to watch.
	URI string `json:"uri"`
}

// UnsubscribeParams are the params of resources/unsubscribe (2024-11-05 to
// 2025-11-25).
type UnsubscribeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource to stop watching.
	URI string `json:"uri"`
}

// ResourceUpdatedParams are the params of notifications/resources/updated.
type ResourceUpdatedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource that changed.
	URI string `json:"uri"`
}

// ResourceListChangedParams are the params of
// notifications/resources/list_changed.
type ResourceListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}
