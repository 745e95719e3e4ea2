package apps

import (
	"slices"

	"github.com/gomcp/sdk/mcp"
)

// EnableServer turns the extension on for s: it declares it in the
// server's capabilities (with no settings) and returns s. Call it before
// connecting clients; app tools are added with AddAppTool.
func EnableServer(s *mcp.Server) *mcp.Server {
	s.AddExtension(ExtensionID, nil)
	return s
}

// EnableClient declares, for c, that it renders app views (its settings
// list MIMEType) and returns c. Call it before connecting.
func EnableClient(c *mcp.Client) *mcp.Client {
	c.AddExtension(ExtensionID, ClientCapability{MIMETypes: []string{MIMEType}})
	return c
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
