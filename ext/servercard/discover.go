package servercard

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// maxDiscoveredCards bounds the cards Discover reads from one catalog.
const maxDiscoveredCards = 100

// A Discovery is what Discover found on a host.
type Discovery struct {
	// Catalog is the host's catalog.
	Catalog *FetchedCatalog
	// Cards has one item per card entry of the catalog, in its order
	// (at most 100).
	Cards []DiscoveredCard
}

// A DiscoveredCard is the outcome of one card entry of a catalog.
type DiscoveredCard struct {
	// Entry is the catalog's entry.
	Entry CatalogEntry
	// Card is the card read from the entry's URL or its inline data;
	// nil when Err is set.
	Card *Fetched
	// Err is why the card could not be read.
	Err error
}

// Discover finds the cards of a host: it reads the AI Catalog at the
// host's CatalogPath (or at hostURL itself when that is a catalog's
// path), and every card the catalog lists, fetched from its URL with
// opts or read from its inline data. A card that fails has its Err set;
// Discover itself fails when the catalog does, or wraps ErrNotFound when
// the catalog lists no card. Catalog entries are untrusted URLs: they go
// through the checks of Fetch, and opts.HTTPClient should apply your
// outbound network policy.
func Discover(ctx context.Context, hostURL string, opts *FetchOptions) (*Discovery, error) {
	u, err := url.Parse(hostURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	if !strings.HasSuffix(u.Path, CatalogPath) {
		u = &url.URL{Scheme: u.Scheme, Host: u.Host, Path: CatalogPath}
	}
	var catOpts FetchOptions
	if opts != nil {
		catOpts = *opts
		catOpts.IfNoneMatch = ""
	}
	cat, err := FetchCatalog(ctx, u.String(), &catOpts)
	if err != nil {
		return nil, err
	}
	d := &Discovery{Catalog: cat}
	cardOpts := catOpts
	cardOpts.MaxBytes = 0
	for _, e := range cat.Catalog.Entries {
		if e.Type != MediaType {
			continue
		}
		if len(d.Cards) == maxDiscoveredCards {
			cat.Warnings = append(cat.Warnings, fmt.Sprintf("more than %d cards: the rest were not read", maxDiscoveredCards))
			break
		}
		dc := DiscoveredCard{Entry: e}
		if len(e.Data) > 0 {
			card, warnings, err := ParseCard(e.Data)
			if err != nil {
				dc.Err = err
			} else {
				dc.Card = &Fetched{URL: cat.URL, Card: card, Raw: e.Data, Warnings: warnings}
			}
		} else {
			dc.Card, dc.Err = Fetch(ctx, e.URL, &cardOpts)
		}
		d.Cards = append(d.Cards, dc)
	}
	if len(d.Cards) == 0 {
		return d, fmt.Errorf("%w: the catalog at %s lists no %s entry", ErrNotFound, cat.URL, MediaType)
	}
	return d, nil
}
