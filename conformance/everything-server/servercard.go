package main

import (
	"fmt"
	"net"
	"net/http"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// cardNamespace is the reverse-DNS namespace of the server's card name.
const cardNamespace = "io.github.gomcp"

// withServerCard routes the card of srv (at /mcp/server-card) and the
// host's AI Catalog (at /.well-known/ai-catalog.json) before the MCP
// handler, which serves every other path. base is the server's public
// URL, "http://HOST:PORT": the card names its streamable HTTP endpoint
// base+"/mcp", as clients reach it.
func withServerCard(srv *mcp.Server, base string, mcpHandler http.Handler) (http.Handler, error) {
	endpoint := base + "/mcp"
	card, err := servercard.FromServer(srv, &servercard.Options{
		Namespace: cardNamespace,
		Remotes:   []servercard.Remote{{Type: servercard.StreamableHTTP, URL: endpoint}},
	})
	if err != nil {
		return nil, err
	}
	cardHandler, err := servercard.NewCardHandler(card)
	if err != nil {
		return nil, err
	}
	entry, err := servercard.EntryFor(card, servercard.URLFor(endpoint))
	if err != nil {
		return nil, err
	}
	catalog, err := servercard.NewCatalogHandler(&servercard.Catalog{Entries: []servercard.CatalogEntry{entry}})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp"+servercard.Suffix, cardHandler)
	mux.Handle(servercard.CatalogPath, catalog)
	mux.Handle("/", mcpHandler)
	return mux, nil
}

// publicBase returns the base URL clients reach a listener at: the host
// the -http flag named (localhost when it named none or every
// interface) with the port the listener got.
func publicBase(flagAddr string, ln net.Addr) (string, error) {
	host, _, err := net.SplitHostPort(flagAddr)
	if err != nil {
		return "", fmt.Errorf("-http %q: %w", flagAddr, err)
	}
	_, port, err := net.SplitHostPort(ln.String())
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}
