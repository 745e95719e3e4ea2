package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sort"
	"strings"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

// cmdCard fetches and validates a Server Card: from the MCP endpoint's
// URL (the card is at URL/server-card), the card's own URL, or a host's
// AI Catalog (--catalog, or a URL ending /.well-known/ai-catalog.json),
// whose cards are all read.
func cmdCard(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) != 1 || len(c.command) > 0 {
		return usageError("card: want one URL: gomcp card URL (the MCP endpoint, the card, or a host with --catalog)")
	}
	raw := c.positional[0]
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	opts := &servercard.FetchOptions{Timeout: c.o.timeout, AllowHTTP: c.o.allowHTTP}
	u, err := url.Parse(raw)
	if err != nil {
		return usageError("card: %q is not a URL: %v", raw, err)
	}
	if c.o.catalog || strings.HasSuffix(u.Path, servercard.CatalogPath) {
		if c.o.check {
			return usageError("card: --check compares one card with its server, not a catalog")
		}
		return cardCatalog(ctx, c, raw, opts)
	}
	cardURL := raw
	if !strings.HasSuffix(u.Path, servercard.Suffix) {
		cardURL = servercard.URLFor(raw)
	}
	f, err := servercard.Fetch(ctx, cardURL, opts)
	if err != nil {
		return cardError(err, "fetching the card", cardURL)
	}
	printWarnings(c.env.stderr, "", f.Warnings)
	if c.o.json {
		if err := printJSON(c.env.stdout, json.RawMessage(f.Raw)); err != nil {
			return err
		}
	} else {
		printCard(c.env.stdout, f)
	}
	if c.o.check {
		return checkRemotes(ctx, c, f.Card)
	}
	return nil
}

// checkRemotes connects to each streamable HTTP endpoint of card and
// compares the live server with the card (servercard.Contradictions):
// the card is advisory, and a server that contradicts it exits 7. The
// endpoints' URLs come from the card, so they pass the URL rules of a
// card fetch first: https, or http to a loopback address unless
// --allow-http.
func checkRemotes(ctx context.Context, c *cmdCtx, card *servercard.Card) error {
	checked := 0
	for _, r := range card.Remotes {
		if r.Type != servercard.StreamableHTTP {
			continue
		}
		if strings.Contains(r.URL, "{") {
			fmt.Fprintf(c.env.stderr, "warning: %s has placeholders: not checked\n", r.URL)
			continue
		}
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme == "http" && !c.o.allowHTTP && !isLoopbackHost(u.Hostname())) {
			return &cliError{exit: exitUsage, code: "url_refused", msg: "checking the card", cause: fmt.Errorf("%s: plain http to a host that is not loopback (--allow-http permits it)", r.URL), url: r.URL}
		}
		cs, err := mcp.NewClient("gomcp", version(), nil).Connect(ctx, mcp.NewStreamableClientTransport(r.URL, nil))
		if err != nil {
			return classify(err, "connecting to "+r.URL, nil)
		}
		problems := servercard.Contradictions(card, cs)
		protocol := cs.ProtocolVersion()
		cs.Close()
		if len(problems) > 0 {
			return &cliError{exit: exitCardInvalid, code: "card_contradicts", msg: "the server at " + r.URL + " contradicts its card",
				cause: errors.New(strings.Join(problems, "; ")), url: r.URL}
		}
		if !c.o.json {
			fmt.Fprintf(c.env.stdout, "%-14s%s agrees with the card (protocol %s)\n", "checked:", r.URL, protocol)
		}
		checked++
	}
	if checked == 0 {
		fmt.Fprintf(c.env.stderr, "warning: the card lists no streamable-http endpoint to check\n")
	}
	return nil
}

// isLoopbackHost reports whether host is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// catalogOutput is the --json output of a catalog: the catalog and, for
// each card entry, the card or why it could not be read.
type catalogOutput struct {
	URL     string              `json:"url"`
	Catalog *servercard.Catalog `json:"catalog"`
	Cards   []catalogCard       `json:"cards"`
}

type catalogCard struct {
	Identifier string          `json:"identifier"`
	URL        string          `json:"url,omitempty"`
	Card       json.RawMessage `json:"card,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// cardCatalog reads a host's catalog and its cards. It fails with the
// first card's failure, after printing every card that was read.
func cardCatalog(ctx context.Context, c *cmdCtx, raw string, opts *servercard.FetchOptions) error {
	d, err := servercard.Discover(ctx, raw, opts)
	if err != nil {
		u := raw
		if d != nil { // a catalog without cards
			u = d.Catalog.URL
		}
		return cardError(err, "reading the catalog", u)
	}
	printWarnings(c.env.stderr, "catalog: ", d.Catalog.Warnings)
	var failed error
	out := catalogOutput{URL: d.Catalog.URL, Catalog: d.Catalog.Catalog}
	for _, dc := range d.Cards {
		item := catalogCard{Identifier: dc.Entry.Identifier, URL: dc.Entry.URL}
		if dc.Err != nil {
			item.Error = dc.Err.Error()
			if failed == nil {
				failed = cardError(dc.Err, "reading the card "+dc.Entry.Identifier, dc.Entry.URL)
			}
		} else {
			item.Card = dc.Card.Raw
			printWarnings(c.env.stderr, dc.Entry.Identifier+": ", dc.Card.Warnings)
		}
		out.Cards = append(out.Cards, item)
	}
	if c.o.json {
		if err := printJSON(c.env.stdout, out); err != nil {
			return err
		}
		return failed
	}
	w := c.env.stdout
	fmt.Fprintf(w, "catalog:      %s (specVersion %s, %d entries)\n", d.Catalog.URL, d.Catalog.Catalog.SpecVersion, len(d.Catalog.Catalog.Entries))
	for _, dc := range d.Cards {
		fmt.Fprintf(w, "\nentry:        %s\n", dc.Entry.Identifier)
		if dc.Err != nil {
			fmt.Fprintf(w, "error:        %v\n", dc.Err)
			continue
		}
		printCard(w, dc.Card)
	}
	return failed
}

// printCard prints a card for people.
func printCard(w io.Writer, f *servercard.Fetched) {
	card := f.Card
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "%-14s%s\n", label+":", value)
		}
	}
	line("card", f.URL)
	line("name", card.Name)
	line("title", card.Title)
	line("version", card.Version)
	line("description", card.Description)
	line("website", card.WebsiteURL)
	if r := card.Repository; r != nil {
		line("repository", r.URL+" ("+r.Source+")")
	}
	for _, r := range card.Remotes {
		versions := ""
		if len(r.SupportedProtocolVersions) > 0 {
			versions = " (" + strings.Join(r.SupportedProtocolVersions, ", ") + ")"
		}
		line("remote", r.Type+" "+r.URL+versions)
		for _, name := range sortedNames(r.Variables) {
			line("  variable", name+describeInput(r.Variables[name]))
		}
		for _, h := range r.Headers {
			line("  header", h.Name+describeInput(h.Input))
			for _, name := range sortedNames(h.Variables) {
				line("    variable", name+describeInput(h.Variables[name]))
			}
		}
	}
	line("etag", f.ETag)
}

// describeInput summarizes an input: required, secret, its preset value.
func describeInput(in servercard.Input) string {
	var parts []string
	if in.IsRequired {
		parts = append(parts, "required")
	}
	if in.IsSecret {
		parts = append(parts, "secret")
	}
	if in.Value != "" {
		parts = append(parts, "value "+in.Value)
	}
	if in.Description != "" {
		parts = append(parts, in.Description)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func sortedNames(m map[string]servercard.Input) []string {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// printWarnings writes each warning on its own line of stderr.
func printWarnings(w io.Writer, prefix string, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "warning: %s%s\n", prefix, s)
	}
}

// cardError turns a failure to read a card or catalog into the exit code
// that tells what happened: 8 missing, 7 invalid, 3 refused for lack of
// authorization, 4 unreachable.
func cardError(err error, what, u string) error {
	var se *servercard.StatusError
	status := 0
	if errors.As(err, &se) {
		status, u = se.StatusCode, se.URL
	}
	switch {
	case errors.Is(err, servercard.ErrNotFound):
		return &cliError{exit: exitCardMissing, code: "card_missing", msg: what + ": not found", cause: err, status: status, url: u}
	case errors.Is(err, servercard.ErrInvalid), errors.Is(err, servercard.ErrMediaType), errors.Is(err, servercard.ErrTooLarge):
		return &cliError{exit: exitCardInvalid, code: "card_invalid", msg: what + ": invalid", cause: err, url: u}
	case errors.Is(err, servercard.ErrURL), errors.Is(err, servercard.ErrRedirect):
		return &cliError{exit: exitUsage, code: "url_refused", msg: what, cause: err, url: u}
	case status == 401 || status == 403:
		return &cliError{exit: exitAuthRequired, code: "auth_required", msg: "authorization required", cause: err, status: status, url: u}
	case errors.Is(err, servercard.ErrStatus):
		return &cliError{exit: exitUsage, code: "server_error", msg: what, cause: err, status: status, url: u}
	}
	return classify(err, what, nil)
}
