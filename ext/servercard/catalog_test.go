package servercard

import (
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/goldentest"
)

// Identifier reads a card's reverse-DNS namespace forwards as the
// publisher, under the "mcp" namespace.
func TestIdentifier(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"com.example/weather", "urn:air:example.com:mcp:weather"},
		{"io.github.someone/tool", "urn:air:someone.github.io:mcp:tool"},
		{"example-org/minimal", "urn:air:example-org:mcp:minimal"},
	}
	for _, tt := range tests {
		got, err := Identifier(tt.name)
		if err != nil || got != tt.want {
			t.Errorf("Identifier(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	for _, bad := range []string{"weather", "/weather", "com.example/", "a/b/c"} {
		if _, err := Identifier(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Identifier(%q): err = %v, want ErrInvalid", bad, err)
		}
	}
}

// weatherCatalog lists the weather card by URL and a second card inline.
func weatherCatalog(t *testing.T) *Catalog {
	t.Helper()
	byURL, err := EntryFor(weatherCard(t), "https://mcp.example.com/mcp/server-card")
	if err != nil {
		t.Fatal(err)
	}
	notes := &Card{Schema: SchemaURL, Name: "com.example/notes", Version: "0.3.0", Description: "Shared notes",
		Remotes: []Remote{{Type: StreamableHTTP, URL: "https://notes.example.com/mcp"}}}
	inline, err := InlineEntry(notes)
	if err != nil {
		t.Fatal(err)
	}
	return &Catalog{Host: &CatalogHost{DisplayName: "Example", Identifier: "example.com"}, Entries: []CatalogEntry{byURL, inline}}
}

// TestGoldenCatalog records the catalog document on the wire and compares
// it with testdata/golden/catalog.txt.
func TestGoldenCatalog(t *testing.T) {
	h, err := NewCatalogHandler(weatherCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	header := map[string]string{"Accept": CatalogMediaType}
	got := dump("GET", header, exchange(h, "GET", header))
	goldentest.Compare(t, filepath.Join("testdata", "golden", "catalog.txt"), got)
}

// The catalog checks of the reference's section 3.9: served with its
// media type and the card endpoint's HTTP rules; parseable, with
// specVersion and entries; card entries with the card type, an urn:air:
// identifier and exactly one of url and data.
func TestCatalogEndpoint(t *testing.T) {
	h, err := NewCatalogHandler(weatherCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	resp := exchange(h, "GET", nil)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != CatalogMediaType ||
		resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("ETag") != h.ETag() {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	if r := exchange(h, "GET", map[string]string{"If-None-Match": h.ETag()}); r.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: status %d, want 304", r.StatusCode)
	}
	cat, warnings, err := ParseCatalog(body)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("ParseCatalog: %v, warnings %q", err, warnings)
	}
	if cat.SpecVersion != CatalogSpecVersion || len(cat.Entries) != 2 {
		t.Fatalf("catalog %+v", cat)
	}
	for _, e := range cat.Entries {
		if e.Type != MediaType || !strings.HasPrefix(e.Identifier, "urn:air:") || (e.URL == "") == (len(e.Data) == 0) {
			t.Errorf("entry %+v", e)
		}
	}
}

// NewCatalogHandler refuses a catalog that clients would refuse.
func TestNewCatalogHandlerRefuses(t *testing.T) {
	good := CatalogEntry{Identifier: "urn:air:example.com:mcp:w", Type: MediaType, URL: "https://e.com/mcp/server-card"}
	tests := []struct {
		name string
		cat  *Catalog
		says string
	}{
		{"specVersion", &Catalog{SpecVersion: "v1", Entries: []CatalogEntry{good}}, "specVersion"},
		{"no identifier", &Catalog{Entries: []CatalogEntry{{Type: MediaType, URL: good.URL}}}, "identifier is empty"},
		{"no type", &Catalog{Entries: []CatalogEntry{{Identifier: good.Identifier, URL: good.URL}}}, "type is empty"},
		{"neither url nor data", &Catalog{Entries: []CatalogEntry{{Identifier: good.Identifier, Type: MediaType}}}, "neither"},
		{"both url and data", &Catalog{Entries: []CatalogEntry{{Identifier: good.Identifier, Type: MediaType, URL: good.URL, Data: []byte(card(""))}}}, "both"},
		{"relative url", &Catalog{Entries: []CatalogEntry{{Identifier: good.Identifier, Type: MediaType, URL: "/mcp/server-card"}}}, "absolute"},
		{"identifier not urn:air", &Catalog{Entries: []CatalogEntry{{Identifier: "weather", Type: MediaType, URL: good.URL}}}, "urn:air:"},
		{"invalid inline card", &Catalog{Entries: []CatalogEntry{{Identifier: good.Identifier, Type: MediaType, Data: []byte(`{"name":"x"}`)}}}, "data"},
		{"host without a name", &Catalog{Host: &CatalogHost{Identifier: "example.com"}, Entries: []CatalogEntry{good}}, "displayName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewCatalogHandler(tt.cat)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want ErrInvalid mentioning %q", err, tt.says)
			}
		})
	}
	if _, err := NewCatalogHandler(&Catalog{}); err != nil {
		t.Fatalf("an empty catalog: %v", err)
	}
}

// ParseCatalog reads catalogs of either specVersion in use and refuses
// malformed ones; an identifier that is not urn:air: is a warning when
// reading.
func TestParseCatalog(t *testing.T) {
	entry := `{"identifier":"urn:air:example.com:mcp:w","type":"application/mcp-server-card+json","url":"https://e.com/mcp/server-card"}`
	valid := []struct {
		name, json string
		warnings   int
	}{
		{"1.0", `{"specVersion":"1.0","entries":[` + entry + `]}`, 0},
		{"0.9", `{"specVersion":"0.9","entries":[` + entry + `]}`, 0},
		{"other artifacts", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:a2a:x","type":"application/a2a-agent-card+json","url":"https://e.com/a2a"}]}`, 0},
		{"inline card", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:weather","type":"application/mcp-server-card+json","data":` + card("") + `}]}`, 0},
		{"host and unknown members", `{"specVersion":"1.0","host":{"displayName":"E"},"extensions":{},"entries":[]}`, 0},
		{"identifier not urn:air", `{"specVersion":"1.0","entries":[{"identifier":"weather","type":"application/mcp-server-card+json","url":"https://e.com/c"}]}`, 1},
	}
	for _, tt := range valid {
		t.Run(tt.name, func(t *testing.T) {
			_, warnings, err := ParseCatalog([]byte(tt.json))
			if err != nil || len(warnings) != tt.warnings {
				t.Fatalf("err %v, warnings %q; want %d warnings", err, warnings, tt.warnings)
			}
		})
	}
	invalid := []struct {
		name, json, says string
	}{
		{"not JSON", `<html>`, "not a JSON object"},
		{"no specVersion", `{"entries":[]}`, "specVersion"},
		{"no entries", `{"specVersion":"1.0"}`, "entries"},
		{"entries not an array", `{"specVersion":"1.0","entries":{}}`, "entries"},
		{"obsolete mediaType", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","mediaType":"application/mcp-server-card+json","url":"https://e.com/c"}]}`, "mediaType is obsolete"},
		{"url and data", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","type":"application/mcp-server-card+json","url":"https://e.com/c","data":` + card("") + `}]}`, "both"},
		{"data null", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","type":"application/mcp-server-card+json","data":null}]}`, "neither"},
		{"invalid inline card", `{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","type":"application/mcp-server-card+json","data":{"name":"w"}}]}`, "data"},
		{"duplicate member", `{"specVersion":"1.0","specVersion":"1.0","entries":[]}`, "duplicate"},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseCatalog([]byte(tt.json))
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want ErrInvalid mentioning %q", err, tt.says)
			}
		})
	}
}
