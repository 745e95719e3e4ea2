package apps

import (
	"slices"

	"github.com/gomcp/sdk/mcp"
)

// EnableServer turns the extension on for a server made with opts: it
// declares the extension in the server's capabilities and returns opts (a
// new ServerOptions if opts is nil), to be passed to mcp.NewServer.
func EnableServer(opts *mcp.ServerOptions) *mcp.ServerOptions {
	if opts == nil {
		opts = &mcp.ServerOptions{}
	}
	if opts.Capabilities == nil {
		opts.Capabilities = &mcp.ServerCapabilities{}
	}
	if opts.Capabilities.Extensions == nil {
		opts.Capabilities.Extensions = make(map[string]any)
	}
	opts.Capabilities.Extensions[ExtensionID] = map[string]any{}
	return opts
}

// EnableClient declares, for a client made with opts, that it renders app
// views, and returns opts (a new ClientOptions if opts is nil), to be
// passed to mcp.NewClient.
func EnableClient(opts *mcp.ClientOptions) *mcp.ClientOptions {
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	if opts.Capabilities == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	if opts.Capabilities.Extensions == nil {
		opts.Capabilities.Extensions = make(map[string]any)
	}
	opts.Capabilities.Extensions[ExtensionID] = ClientCapability{MIMETypes: []string{MIMEType}}
	return opts
}

// ClientSupportsApps reports whether caps say that the client renders app
// views: its entry for the extension lists MIMEType.
func ClientSupportsApps(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	switch c := caps.Extensions[ExtensionID].(type) {
	case ClientCapability:
		return slices.Contains(c.MIMETypes, MIMEType)
	case *ClientCapability:
		return c != nil && slices.Contains(c.MIMETypes, MIMEType)
	case map[string]any:
		types, _ := c["mimeTypes"].([]any)
		for _, t := range types {
			if t == MIMEType {
				return true
			}
		}
	}
	return false
}

// SessionSupportsApps reports whether the client calling through ss
// renders app views, from the capabilities it declared for this request
// (2026-07-28) or at initialize (earlier revisions). A tool handler uses
// it to answer hosts without Apps with a complete text result.
func SessionSupportsApps(ss *mcp.ServerSession) bool {
	return ss != nil && ClientSupportsApps(ss.ClientCapabilities())
}
