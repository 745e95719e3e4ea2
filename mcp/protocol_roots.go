package mcp

import ()

// ---- Roots ----

// Root is a directory or file the client allows the server to work on.
type Root struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the root; a file:// URI.
	URI string `json:"uri"`
	// Name is a display name.
	Name string `json:"name,omitempty"`
}

// ListRootsParams are the params of roots/list.
type ListRootsParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// ListRootsResult is the result of roots/list.
type ListRootsResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused: this result travels from client to server, or
	// inside inputResponses in 2026-07-28.
	ResultType string `json:"resultType,omitempty"`
	// Roots are the client's roots.
	Roots []*Root `json:"roots"`
}

// RootsListChangedParams are the params of notifications/roots/list_changed
// (2024-11-05 to 2025-11-25).
type RootsListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}
