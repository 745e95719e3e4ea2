package apps

// ExtensionID is the identifier of the MCP Apps extension, the key of its
// entry in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/ui"

// MIMEType is the media type of an app's HTML view.
const MIMEType = "text/html;profile=mcp-app"

// URIScheme is the scheme every view URI must use.
const URIScheme = "ui://"

// MetaKey is the _meta key under which tools and resources carry their
// app metadata (ToolMeta and ResourceMeta).
const MetaKey = "ui"

// FlatResourceURIKey is the flat _meta key that older hosts read for a
// tool's view URI. It is deprecated by the extension, but AddAppTool
// writes it beside ToolMeta so that those hosts find the view too.
const FlatResourceURIKey = "ui/resourceUri"

// A Visibility says who may see and call an app tool.
type Visibility string

// The audiences of a tool. A tool without VisibleToModel is hidden from the
// model and only called by its view; a tool without VisibleToApp cannot be
// called from a view.
const (
	VisibleToModel Visibility = "model"
	VisibleToApp   Visibility = "app"
)

// ToolMeta is the app metadata of a tool, its _meta["ui"].
type ToolMeta struct {
	// ResourceURI is the "ui://" URI of the tool's view.
	ResourceURI string `json:"resourceUri"`
	// Visibility lists who sees the tool; empty means both the model and
	// the app.
	Visibility []Visibility `json:"visibility,omitempty"`
}

// ResourceMeta is the app metadata of a view resource, its _meta["ui"]:
// what the host needs to sandbox the view.
type ResourceMeta struct {
	// CSP lists the origins the view may reach; nil means the host's
	// restrictive default policy.
	CSP *CSP `json:"csp,omitzero"`
	// Permissions lists the browser permissions the view asks for.
	Permissions *Permissions `json:"permissions,omitzero"`
	// Domain asks for a dedicated origin for the view, in a form the host
	// defines.
	Domain string `json:"domain,omitempty"`
	// PrefersBorder tells whether the view would like the host to draw a
	// border around it; nil leaves it to the host.
	PrefersBorder *bool `json:"prefersBorder,omitzero"`
}

// CSP is the content security policy a view asks for: the origins each
// kind of request may go to.
type CSP struct {
	// ConnectDomains are origins for fetch, XHR and WebSocket.
	ConnectDomains []string `json:"connectDomains,omitempty"`
	// ResourceDomains are origins for scripts, styles, images and fonts.
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	// FrameDomains are origins the view may embed in frames.
	FrameDomains []string `json:"frameDomains,omitempty"`
	// BaseURIDomains are origins allowed as the document's base URI.
	BaseURIDomains []string `json:"baseUriDomains,omitempty"`
}

// Permissions are the browser permissions a view asks for; a non-nil
// field asks for that permission.
type Permissions struct {
	Camera         *Permission `json:"camera,omitzero"`
	Microphone     *Permission `json:"microphone,omitzero"`
	Geolocation    *Permission `json:"geolocation,omitzero"`
	ClipboardWrite *Permission `json:"clipboardWrite,omitzero"`
}

// A Permission is asked for by being present; it has no settings.
type Permission struct{}

// ClientCapability is a host's entry for the extension in its
// capabilities: the view media types it renders.
type ClientCapability struct {
	// MIMETypes lists the view types the host renders; MIMEType among
	// them means it renders apps.
	MIMETypes []string `json:"mimeTypes,omitempty"`
}
