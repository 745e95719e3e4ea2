package servercard

import "github.com/gomcp/sdk/mcp"

// Identifiers, media types and locations of Server Cards and AI Catalogs.
const (
	// ExtensionID identifies the Server Card extension (SEP-2127). Cards
	// are fetched before connecting, so no capability declares it.
	ExtensionID = "io.modelcontextprotocol/server-card"
	// SchemaURL is the $schema every card carries.
	SchemaURL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// MediaType is the media type of a card.
	MediaType = "application/mcp-server-card+json"
	// LegacyMediaType is the media type cards had before June 2026;
	// clients accept it from hosts not yet updated.
	LegacyMediaType = "application/mcp-server+json"
	// CatalogMediaType is the media type of an AI Catalog.
	CatalogMediaType = "application/ai-catalog+json"
	// Suffix is what the reserved location of a card appends to the URL
	// of the server's streamable HTTP endpoint: https://host/mcp serves
	// its card at https://host/mcp/server-card.
	Suffix = "/server-card"
	// CatalogPath is the well-known path of a host's AI Catalog.
	CatalogPath = "/.well-known/ai-catalog.json"
	// CatalogSpecVersion is the AI Catalog version of the catalogs this
	// package writes ("Major.Minor"); it reads any.
	CatalogSpecVersion = "0.9"
)

// Transport types of a Remote.
const (
	// StreamableHTTP is the streamable HTTP transport (2025-03-26 and
	// later, and 2026-07-28).
	StreamableHTTP = "streamable-http"
	// SSE is the HTTP+SSE transport of 2024-11-05.
	SSE = "sse"
)

// A Card is an MCP Server Card: the identity of a remote MCP server and
// the endpoints it serves. It lists no tools, prompts, resources or
// capabilities; those are read from the live server.
type Card struct {
	// Schema is SchemaURL.
	Schema string `json:"$schema"`
	// Name is the server's name in reverse-DNS form with one slash:
	// "com.example/weather".
	Name string `json:"name"`
	// Version is the server's version, as in its serverInfo; never a
	// range.
	Version string `json:"version"`
	// Description says what the server does, in 1 to 100 characters.
	Description string `json:"description"`
	// Title is a display name (1 to 100 characters).
	Title string `json:"title,omitempty"`
	// WebsiteURL is the server's home page or documentation.
	WebsiteURL string `json:"websiteUrl,omitempty"`
	// Repository is where the server's source code is.
	Repository *Repository `json:"repository,omitempty"`
	// Icons are icons a client may show for the server, as in its
	// serverInfo.
	Icons []mcp.Icon `json:"icons,omitempty"`
	// Remotes are the endpoints the server is served at.
	Remotes []Remote `json:"remotes,omitempty"`
	// Meta is vendor data under reverse-DNS keys. It must not list
	// capabilities or primitives.
	Meta map[string]any `json:"_meta,omitempty"`
}

// A Repository says where a server's source code is.
type Repository struct {
	// URL is the repository's address, for browsing and cloning.
	URL string `json:"url"`
	// Source names the hosting service, such as "github".
	Source string `json:"source"`
	// Subfolder is the server's path inside a larger repository.
	Subfolder string `json:"subfolder,omitempty"`
	// ID is the hosting service's stable identifier of the repository.
	ID string `json:"id,omitempty"`
}

// A Remote is one endpoint a server is served at.
type Remote struct {
	// Type is StreamableHTTP or SSE.
	Type string `json:"type"`
	// URL is the endpoint's http(s) URL. It may contain {name}
	// placeholders, filled from Variables.
	URL string `json:"url"`
	// Headers are the HTTP headers the endpoint requires or accepts.
	Headers []Header `json:"headers,omitempty"`
	// Variables describe the placeholders of URL.
	Variables map[string]Input `json:"variables,omitempty"`
	// SupportedProtocolVersions are the MCP revisions the endpoint
	// serves, so that a client can choose one before connecting.
	SupportedProtocolVersions []string `json:"supportedProtocolVersions,omitempty"`
}

// An Input describes a value a client supplies, or that the card presets:
// a URL variable or a header value.
type Input struct {
	// Description tells the user what the value is.
	Description string `json:"description,omitempty"`
	// IsRequired is set when the connection fails without the value.
	IsRequired bool `json:"isRequired,omitzero"`
	// IsSecret marks a secret (a token, a password): a card describes it
	// and never fills it in.
	IsSecret bool `json:"isSecret,omitzero"`
	// Format is "string", "number", "boolean" or "filepath".
	Format string `json:"format,omitempty"`
	// Default is the value used when the user gives none.
	Default string `json:"default,omitempty"`
	// Placeholder shows the user the form of the value.
	Placeholder string `json:"placeholder,omitempty"`
	// Value presets the value; {name} placeholders in it are filled from
	// the variables of the header.
	Value string `json:"value,omitempty"`
	// Choices, if set, are the only values allowed.
	Choices []string `json:"choices,omitempty"`
}

// A Header is an HTTP header an endpoint requires or accepts.
type Header struct {
	// Name is the header's name.
	Name string `json:"name"`
	Input
	// Variables describe the {name} placeholders of Value.
	Variables map[string]Input `json:"variables,omitempty"`
}
