package servercard_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// A server publishes its card beside its MCP endpoint, and a client reads
// it before connecting.
func ExampleNewHandler() {
	server := mcp.NewServer("weather", "1.4.2", &mcp.ServerOptions{
		Title:       "Weather",
		Description: "Forecasts and current conditions for any city",
	})
	card, err := servercard.NewHandler(server, &servercard.Options{
		Namespace: "com.example",
		Remotes:   []servercard.Remote{{Type: servercard.StreamableHTTP, URL: "https://mcp.example.com/mcp"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	mux.Handle("/mcp/server-card", card)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	// docs:region fetch
	f, err := servercard.Fetch(context.Background(), servercard.URLFor(ts.URL+"/mcp"), nil)
	if err != nil {
		// errors.Is(err, servercard.ErrNotFound): the server has no
		// card; ErrInvalid, ErrMediaType, ErrTooLarge: it has a bad one.
		log.Fatal(err)
	}
	// docs:endregion
	fmt.Println(f.Card.Name, f.Card.Version, "-", f.Card.Title)
	fmt.Println(f.Card.Remotes[0].Type, f.Card.Remotes[0].URL, f.Card.Remotes[0].SupportedProtocolVersions[0])
	fmt.Println("cache for", f.MaxAge)
	// Output:
	// com.example/weather 1.4.2 - Weather
	// streamable-http https://mcp.example.com/mcp 2026-07-28
	// cache for 1h0m0s
}

// A host lists its servers' cards in an AI Catalog at its well-known
// path, and a client discovers them from the host's URL alone.
func ExampleDiscover() {
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	var entries []servercard.CatalogEntry
	for _, name := range []string{"weather", "notes"} {
		server := mcp.NewServer(name, "1.0.0", &mcp.ServerOptions{Description: "The " + name + " server"})
		card, err := servercard.FromServer(server, &servercard.Options{
			Namespace: "com.example",
			Remotes:   []servercard.Remote{{Type: servercard.StreamableHTTP, URL: ts.URL + "/" + name + "/mcp"}},
		})
		if err != nil {
			log.Fatal(err)
		}
		mux.Handle("/"+name+"/mcp/server-card", must(servercard.NewCardHandler(card)))
		entries = append(entries, must(servercard.EntryFor(card, servercard.URLFor(ts.URL+"/"+name+"/mcp"))))
	}
	mux.Handle(servercard.CatalogPath, must(servercard.NewCatalogHandler(&servercard.Catalog{Entries: entries})))

	d, err := servercard.Discover(context.Background(), ts.URL, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range d.Cards {
		fmt.Println(c.Entry.Identifier, "->", c.Card.Card.Name, c.Card.Card.Description)
	}
	// Output:
	// urn:air:example.com:mcp:weather -> com.example/weather The weather server
	// urn:air:example.com:mcp:notes -> com.example/notes The notes server
}

// must returns v, and stops the example on an error.
func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}
