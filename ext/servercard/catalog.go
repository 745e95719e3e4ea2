package servercard

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/gomcp/sdk/internal/strictjson"
)

// A Catalog is an AI Catalog document: what a host lists of its AI
// artifacts, here MCP Server Cards. The AI Catalog specification owns the
// format; this type has the members that card discovery uses, and
// unknown members of a catalog read are ignored.
type Catalog struct {
	// SpecVersion is the AI Catalog version, "Major.Minor";
	// CatalogSpecVersion when empty in a catalog served.
	SpecVersion string `json:"specVersion"`
	// Host, if set, names the organization operating the catalog.
	Host *CatalogHost `json:"host,omitempty"`
	// Entries are the artifacts listed; a served catalog lists cards.
	Entries []CatalogEntry `json:"entries"`
}

// A CatalogHost names the organization operating a catalog.
type CatalogHost struct {
	// DisplayName is the organization's name.
	DisplayName string `json:"displayName"`
	// Identifier is a verifiable identifier: a DID, a domain name or
	// another URI.
	Identifier string `json:"identifier,omitempty"`
	// DocumentationURL is the organization's AI documentation.
	DocumentationURL string `json:"documentationUrl,omitempty"`
}

// A CatalogEntry lists one artifact: its identifier, its media type, and
// either the URL it is fetched from or the artifact itself.
type CatalogEntry struct {
	// Identifier names the artifact; for a card, urn:air:{publisher}:mcp:{name}
	// (see Identifier).
	Identifier string `json:"identifier"`
	// Type is the artifact's media type: MediaType for a card.
	Type string `json:"type"`
	// URL is where the artifact is fetched from. Exactly one of URL and
	// Data is set.
	URL string `json:"url,omitempty"`
	// Data is the artifact itself, inline.
	Data json.RawMessage `json:"data,omitempty"`
}

// Identifier returns the AI Catalog identifier of the card named name:
// the reverse-DNS namespace read forwards as the publisher, "mcp" as the
// namespace, then the server's name. "com.example/weather" gives
// "urn:air:example.com:mcp:weather".
func Identifier(name string) (string, error) {
	ns, server, ok := strings.Cut(name, "/")
	if !ok || ns == "" || server == "" || strings.Contains(server, "/") {
		return "", fmt.Errorf("%w: card name %q is not namespace/name", ErrInvalid, name)
	}
	labels := strings.Split(ns, ".")
	slices.Reverse(labels)
	return "urn:air:" + strings.Join(labels, ".") + ":mcp:" + server, nil
}

// EntryFor returns the catalog entry of card c served at cardURL.
func EntryFor(c *Card, cardURL string) (CatalogEntry, error) {
	id, err := Identifier(c.Name)
	if err != nil {
		return CatalogEntry{}, err
	}
	return CatalogEntry{Identifier: id, Type: MediaType, URL: cardURL}, nil
}

// InlineEntry returns a catalog entry carrying card c itself, validated.
func InlineEntry(c *Card) (CatalogEntry, error) {
	id, err := Identifier(c.Name)
	if err != nil {
		return CatalogEntry{}, err
	}
	data, err := c.encode()
	if err != nil {
		return CatalogEntry{}, err
	}
	return CatalogEntry{Identifier: id, Type: MediaType, Data: data}, nil
}

// NewCatalogHandler returns a Handler serving catalog c with the media
// type CatalogMediaType, conventionally at CatalogPath. The catalog is
// validated first: every entry has an identifier, a type and exactly one
// of URL (absolute http or https) and Data; card entries have an
// identifier starting "urn:air:" and inline cards are valid cards.
func NewCatalogHandler(c *Catalog) (*Handler, error) {
	if c == nil {
		return nil, errors.New("servercard: NewCatalogHandler needs a catalog")
	}
	cat := *c
	if cat.SpecVersion == "" {
		cat.SpecVersion = CatalogSpecVersion
	}
	if cat.Entries == nil {
		cat.Entries = []CatalogEntry{}
	}
	problems, _ := checkCatalog(&cat, true)
	if err := invalid(problems); err != nil {
		return nil, err
	}
	body, err := strictjson.Marshal(&cat)
	if err != nil {
		return nil, fmt.Errorf("servercard: encoding the catalog: %w", err)
	}
	return newHandler(body, CatalogMediaType), nil
}

// specVersionForm is the form of an AI Catalog specVersion.
var specVersionForm = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)

// checkCatalog returns the problems of c (errors) and its warnings.
// Serving, an entry for a card without an urn:air: identifier is a
// problem; reading, a warning (the AI Catalog only recommends the form).
func checkCatalog(c *Catalog, serving bool) (problems, warnings []string) {
	if !specVersionForm.MatchString(c.SpecVersion) {
		problems = append(problems, fmt.Sprintf("specVersion %q is not Major.Minor", c.SpecVersion))
	}
	if c.Host != nil && c.Host.DisplayName == "" {
		problems = append(problems, "host: displayName is empty")
	}
	for i, e := range c.Entries {
		at := fmt.Sprintf("entries[%d]", i)
		if e.Identifier == "" {
			problems = append(problems, at+": identifier is empty")
		}
		if e.Type == "" {
			problems = append(problems, at+": type is empty")
		}
		switch {
		case e.URL == "" && len(e.Data) == 0:
			problems = append(problems, at+": has neither url nor data")
		case e.URL != "" && len(e.Data) > 0:
			problems = append(problems, at+": has both url and data")
		case e.URL != "":
			if u, err := url.Parse(e.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				problems = append(problems, fmt.Sprintf("%s: url %q is not an absolute http(s) URL", at, e.URL))
			}
		}
		if e.Type != MediaType {
			continue
		}
		if !strings.HasPrefix(e.Identifier, "urn:air:") {
			msg := fmt.Sprintf("%s: identifier %q of a card does not start with urn:air:", at, e.Identifier)
			if serving {
				problems = append(problems, msg)
			} else {
				warnings = append(warnings, msg)
			}
		}
		if len(e.Data) > 0 {
			if _, w, err := ParseCard(e.Data); err != nil {
				problems = append(problems, fmt.Sprintf("%s: data: %v", at, err))
			} else {
				for _, s := range w {
					warnings = append(warnings, at+": data: "+s)
				}
			}
		}
	}
	return problems, warnings
}

// ParseCatalog decodes the JSON text of an AI Catalog and validates it:
// strict JSON with specVersion ("Major.Minor") and entries, each with an
// identifier, a type and exactly one of url and data; inline cards must
// be valid (see ParseCard). An entry with the obsolete member mediaType
// instead of type is refused. Failures wrap ErrInvalid. Warnings note
// card entries whose identifier is not an urn:air: one, and the warnings
// of inline cards.
func ParseCatalog(data []byte) (cat *Catalog, warnings []string, err error) {
	top, err := decodeObject(data, "catalog")
	if err != nil {
		return nil, nil, err
	}
	for _, m := range []string{"specVersion", "entries"} {
		if _, ok := top[m]; !ok {
			return nil, nil, fmt.Errorf("%w: the catalog has no %s", ErrInvalid, m)
		}
	}
	var raw struct {
		Entries []map[string]json.RawMessage `json:"entries"`
	}
	if err := strictjson.Unmarshal(data, &raw); err != nil {
		return nil, nil, fmt.Errorf("%w: entries: %w", ErrInvalid, err)
	}
	var c Catalog
	if err := strictjson.Unmarshal(data, &c); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	var problems []string
	for i, e := range raw.Entries {
		if _, ok := e["mediaType"]; ok {
			problems = append(problems, fmt.Sprintf("entries[%d]: the member mediaType is obsolete: entries name their media type in type", i))
		}
		if d, ok := e["data"]; ok && string(d) == "null" {
			c.Entries[i].Data = nil // "data": null carries nothing
		}
	}
	p, warnings := checkCatalog(&c, false)
	if err := invalid(append(problems, p...)); err != nil {
		return nil, nil, err
	}
	return &c, warnings, nil
}
