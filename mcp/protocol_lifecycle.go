package mcp

import ()

// ---- Lifecycle ----

// InitializeParams are the params of initialize, the first request of a
// session (2024-11-05 to 2025-11-25).
type InitializeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ProtocolVersion is the newest version the client supports.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the client's capabilities.
	Capabilities *ClientCapabilities `json:"capabilities"`
	// ClientInfo identifies the client.
	ClientInfo *Implementation `json:"clientInfo"`
}

// InitializeResult is the result of initialize (2024-11-05 to 2025-11-25).
type InitializeResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// ProtocolVersion is the version the server chose.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the server's capabilities.
	Capabilities *ServerCapabilities `json:"capabilities"`
	// ServerInfo identifies the server.
	ServerInfo *Implementation `json:"serverInfo"`
	// Instructions tell the model how to use the server.
	Instructions string `json:"instructions,omitempty"`
}

// InitializedParams are the params of notifications/initialized
// (2024-11-05 to 2025-11-25).
type InitializedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// PingParams are the params of ping (2024-11-05 to 2025-11-25).
type PingParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// EmptyResult is the result of requests that return nothing: ping,
// resources/subscribe, resources/unsubscribe and logging/setLevel.
type EmptyResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
}

// DiscoverParams are the params of server/discover (2026-07-28).
type DiscoverParams struct {
	// Meta is the _meta member, with the request's protocol fields.
	Meta Meta `json:"_meta,omitzero"`
}

// DiscoverResult is the result of server/discover: the server's versions,
// capabilities and instructions; its identity is Meta.ServerInfo
// (2026-07-28).
type DiscoverResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete".
	ResultType string `json:"resultType,omitempty"`
	// SupportedVersions lists the protocol versions the server supports.
	SupportedVersions []string `json:"supportedVersions"`
	// Capabilities are the server's capabilities.
	Capabilities *ServerCapabilities `json:"capabilities"`
	// Instructions tell the model how to use the server.
	Instructions string `json:"instructions,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result.
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate.
	CacheScope string `json:"cacheScope,omitempty"`
}
