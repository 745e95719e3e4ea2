// Package servercard publishes and reads MCP Server Cards (SEP-2127,
// extension identifier "io.modelcontextprotocol/server-card"): a static,
// public JSON document that describes a remote MCP server before any
// client connects to it (its name, version, description, icons and the
// endpoints it serves, with the protocol versions each supports), and the
// AI Catalog that lists the cards a host serves.
//
// # Serving
//
// FromServer builds a card from a server's own identity (the
// Implementation that NewServer and ServerOptions set, which initialize
// and server/discover report) and the endpoints the program says it
// serves, so the card cannot drift from the server. NewHandler serves it,
// by convention at the MCP endpoint's URL plus "/server-card":
//
//	h, err := servercard.NewHandler(server, &servercard.Options{
//		Namespace: "com.example",
//		Remotes:   []servercard.Remote{{Type: servercard.StreamableHTTP, URL: "https://mcp.example.com/mcp"}},
//	})
//	mux.Handle("/mcp/server-card", h)
//
// The card is validated against the card's JSON Schema and checked for
// leaked secrets when the handler is built; an invalid card is an error
// then, never a failure later. The handler answers GET and HEAD with the
// media type application/mcp-server-card+json, CORS headers open to every
// origin (cards are public), Cache-Control and a strong ETag, with 304
// Not Modified for a matching If-None-Match; OPTIONS answers CORS
// preflights, and other methods get 405.
//
// NewCatalogHandler serves an AI Catalog document (conventionally at
// CatalogPath, "/.well-known/ai-catalog.json") whose entries point at
// cards (EntryFor) or carry them inline (InlineEntry).
//
// # Reading
//
// Fetch reads and validates a card from a URL, FetchCatalog a catalog and
// Discover a host's catalog and every card it lists. They send the card's
// media type in Accept, bound the size and the time of each request,
// refuse redirects to another host and plain http except to a loopback
// address, and return errors that callers test with errors.Is:
// ErrNotFound, ErrInvalid, ErrMediaType, ErrTooLarge, ErrRedirect,
// ErrURL and ErrStatus. FetchOptions.DenyPrivateNetworks refuses
// addresses that are not public, for URLs from untrusted input. A Cache reuses a card while its Cache-Control
// max-age lasts and then revalidates it with its ETag. A card is
// advisory: Contradictions compares it with a live session, whose values
// win.
//
// Cards and catalogs are public. A card must not carry credentials,
// tokens, private endpoints or per-user data: headers that need a secret
// describe it (IsSecret) and never fill it in, which FromServer and
// NewHandler enforce.
package servercard
