// Package apps serves MCP Apps (the "io.modelcontextprotocol/ui"
// extension): tools that come with an interactive HTML view, which a host
// that supports Apps renders in a sandboxed frame next to the conversation.
//
// A server registers an app tool with AddAppTool, which also registers the
// view as a "ui://" resource of MIME type MIMEType and points the tool at it
// in its _meta. The tool's result stays an ordinary tools/call result: its
// text content is what hosts without Apps show, and its structured content
// is what the view consumes. A handler can ask whether the calling host
// renders apps with SessionSupportsApps, and answer differently.
//
// Like every extension, Apps is off until a program turns it on:
// EnableServer declares it in a server's capabilities, and EnableClient
// declares a client's support (so that servers send it app tools). Both
// use the SDK's public extension API (mcp.Server.AddExtension,
// mcp.Client.AddExtension), as any extension package can.
package apps
