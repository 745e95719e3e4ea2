package servercard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Discover reads a host's well-known catalog and every card it lists, by
// URL or inline; a card that fails is reported on its own.
func TestDiscover(t *testing.T) {
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	weather := weatherCard(t)
	mux.Handle("/mcp/server-card", must(NewCardHandler(weather)))
	byURL, _ := EntryFor(weather, ts.URL+"/mcp/server-card")
	inline, err := InlineEntry(&Card{Schema: SchemaURL, Name: "com.example/notes", Version: "1", Description: "Notes"})
	if err != nil {
		t.Fatal(err)
	}
	missing := CatalogEntry{Identifier: "urn:air:example.com:mcp:gone", Type: MediaType, URL: ts.URL + "/gone/server-card"}
	agent := CatalogEntry{Identifier: "urn:air:example.com:a2a:x", Type: "application/a2a-agent-card+json", URL: ts.URL + "/a2a"}
	mux.Handle(CatalogPath, must(NewCatalogHandler(&Catalog{Entries: []CatalogEntry{byURL, agent, inline, missing}})))

	d, err := Discover(context.Background(), ts.URL+"/some/page", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cards) != 3 {
		t.Fatalf("%d cards, want 3 (the agent card is not one)", len(d.Cards))
	}
	if c := d.Cards[0]; c.Err != nil || c.Card.Card.Name != "com.example/weather" {
		t.Errorf("by URL: %+v", c)
	}
	if c := d.Cards[1]; c.Err != nil || c.Card.Card.Name != "com.example/notes" {
		t.Errorf("inline: %+v", c)
	}
	if c := d.Cards[2]; !errors.Is(c.Err, ErrNotFound) {
		t.Errorf("missing: err = %v, want ErrNotFound", c.Err)
	}
}

// A host without a catalog, or whose catalog lists no card, has nothing
// to discover: ErrNotFound.
func TestDiscoverNothing(t *testing.T) {
	empty := httptest.NewServer(must(NewCatalogHandler(&Catalog{})))
	defer empty.Close()
	none := httptest.NewServer(http.NotFoundHandler())
	defer none.Close()
	for _, u := range []string{empty.URL, none.URL} {
		if _, err := Discover(context.Background(), u, nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", u, err)
		}
	}
}

func must(h *Handler, err error) *Handler {
	if err != nil {
		panic(err)
	}
	return h
}
