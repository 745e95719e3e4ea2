package servercard

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults of FetchOptions.
const (
	// DefaultTimeout bounds one fetch, redirects included.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxCardBytes bounds the body of a card.
	DefaultMaxCardBytes = 256 << 10
	// DefaultMaxCatalogBytes bounds the body of a catalog.
	DefaultMaxCatalogBytes = 1 << 20
	// maxRedirects bounds the redirects followed (same host only).
	maxRedirects = 5
)

// cardAccept is the Accept header of a card request: the card's media
// type first, plain JSON for hosts that serve nothing else.
const cardAccept = MediaType + ", application/json;q=0.5"

// catalogAccept is the Accept header of a catalog request.
const catalogAccept = CatalogMediaType + ", application/json;q=0.5"

// FetchOptions tune Fetch, FetchCatalog and Discover. A nil *FetchOptions
// means defaults.
type FetchOptions struct {
	// HTTPClient sends the requests; nil means http.DefaultClient. Its
	// CheckRedirect is replaced: redirects are followed only on the same
	// host and scheme. Give a client whose transport applies your
	// outbound network policy (such as refusing private addresses) when
	// URLs come from untrusted input, as catalog entries do.
	HTTPClient *http.Client
	// Timeout bounds each fetch; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes bounds the body of each document; zero means
	// DefaultMaxCardBytes for a card and DefaultMaxCatalogBytes for a
	// catalog.
	MaxBytes int64
	// AllowHTTP permits plain http to hosts that are not loopback. By
	// default only https is fetched, and http to localhost or a loopback
	// address (for development).
	AllowHTTP bool
	// DenyPrivateNetworks refuses to connect to addresses that are not
	// public (loopback, private, link-local, shared, reserved), checked
	// on the address connected to, after name resolution: for URLs from
	// untrusted input, such as catalog entries. It uses its own HTTP
	// client, without a proxy, and HTTPClient must be nil.
	DenyPrivateNetworks bool
	// IfNoneMatch, if set, is sent as If-None-Match: a host whose
	// document has this ETag answers 304, and the result is NotModified
	// with no document.
	IfNoneMatch string
}

// A Fetched is a card read from a URL.
type Fetched struct {
	// URL is the URL the card was read from, after redirects.
	URL string
	// Card is the card, validated; nil when NotModified.
	Card *Card
	// Raw is the card's JSON text as served.
	Raw []byte
	// ETag is the host's entity tag for the card, to send as
	// FetchOptions.IfNoneMatch next time.
	ETag string
	// MaxAge is how long the card may be used without asking again
	// (Cache-Control max-age; zero when the host gave none or no-store).
	MaxAge time.Duration
	// NotModified is set when the host answered 304 to IfNoneMatch: the
	// card held under that ETag is still current.
	NotModified bool
	// Warnings are what the card should not have (see ParseCard).
	Warnings []string
}

// A FetchedCatalog is a catalog read from a URL.
type FetchedCatalog struct {
	// URL is the URL the catalog was read from, after redirects.
	URL string
	// Catalog is the catalog, validated; nil when NotModified.
	Catalog *Catalog
	// ETag is the host's entity tag for the catalog.
	ETag string
	// MaxAge is how long the catalog may be used without asking again.
	MaxAge time.Duration
	// NotModified is set when the host answered 304 to IfNoneMatch.
	NotModified bool
	// Warnings are what the catalog should not have (see ParseCatalog).
	Warnings []string
}

// Fetch reads the card at cardURL (see URLFor for a server's reserved
// location), sending Accept: application/mcp-server-card+json, and
// validates it (see ParseCard). It accepts the media types
// application/mcp-server-card+json, application/mcp-server+json (the
// name before June 2026) and application/json. Errors wrap ErrURL,
// ErrRedirect, ErrNotFound, ErrStatus, ErrMediaType, ErrTooLarge or
// ErrInvalid, or are the HTTP client's (an unreachable host, a timeout).
//
// A card is advisory: a client must not base security or access
// decisions on it, and prefers what the live server says (see
// Contradictions).
func Fetch(ctx context.Context, cardURL string, opts *FetchOptions) (*Fetched, error) {
	d, err := get(ctx, cardURL, opts, cardAccept, DefaultMaxCardBytes, []string{MediaType, LegacyMediaType, "application/json"})
	if err != nil {
		return nil, err
	}
	f := &Fetched{URL: d.url, ETag: d.etag, MaxAge: d.maxAge, NotModified: d.notModified}
	if d.notModified {
		return f, nil
	}
	f.Raw = d.body
	if f.Card, f.Warnings, err = ParseCard(d.body); err != nil {
		return nil, fmt.Errorf("%s: %w", d.url, err)
	}
	return f, nil
}

// FetchCatalog reads the AI Catalog at catalogURL, sending Accept:
// application/ai-catalog+json, and validates it (see ParseCatalog). It
// accepts the media types application/ai-catalog+json and
// application/json. Errors are those of Fetch.
func FetchCatalog(ctx context.Context, catalogURL string, opts *FetchOptions) (*FetchedCatalog, error) {
	d, err := get(ctx, catalogURL, opts, catalogAccept, DefaultMaxCatalogBytes, []string{CatalogMediaType, "application/json"})
	if err != nil {
		return nil, err
	}
	f := &FetchedCatalog{URL: d.url, ETag: d.etag, MaxAge: d.maxAge, NotModified: d.notModified}
	if d.notModified {
		return f, nil
	}
	if f.Catalog, f.Warnings, err = ParseCatalog(d.body); err != nil {
		return nil, fmt.Errorf("%s: %w", d.url, err)
	}
	return f, nil
}

// document is a body read by get, with what its response said of it.
type document struct {
	url         string
	body        []byte
	etag        string
	maxAge      time.Duration
	notModified bool
}

// get fetches rawURL with the checks of Fetch: the URL's form, same-host
// redirects, the status, the media type (one of accepted) and the size.
func get(ctx context.Context, rawURL string, opts *FetchOptions, accept string, defaultMax int64, accepted []string) (*document, error) {
	if opts == nil {
		opts = &FetchOptions{}
	}
	u, err := checkURL(rawURL, opts.AllowHTTP)
	if err != nil {
		return nil, err
	}
	if opts.DenyPrivateNetworks && opts.HTTPClient != nil {
		return nil, fmt.Errorf("servercard: FetchOptions.DenyPrivateNetworks needs HTTPClient nil")
	}
	timeout, limit := opts.Timeout, opts.MaxBytes
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if limit <= 0 {
		limit = defaultMax
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	req.Header.Set("Accept", accept)
	if opts.IfNoneMatch != "" {
		req.Header.Set("If-None-Match", opts.IfNoneMatch)
	}
	resp, err := client(opts).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	d := &document{url: resp.Request.URL.String(), etag: resp.Header.Get("ETag"), maxAge: maxAge(resp.Header)}
	switch {
	case resp.StatusCode == http.StatusNotModified && opts.IfNoneMatch != "":
		d.notModified = true
		if d.etag == "" {
			d.etag = opts.IfNoneMatch
		}
		return d, nil
	case resp.StatusCode != http.StatusOK:
		return nil, &StatusError{URL: d.url, StatusCode: resp.StatusCode}
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !containsFold(accepted, mt) {
		return nil, fmt.Errorf("%w: %s answered Content-Type %q; want %s", ErrMediaType, d.url, ct, strings.Join(accepted, " or "))
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("%w: %s announces %d bytes; the limit is %d", ErrTooLarge, d.url, resp.ContentLength, limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("servercard: reading %s: %w", d.url, err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("%w: %s sent more than %d bytes", ErrTooLarge, d.url, limit)
	}
	d.body = body
	return d, nil
}

// checkURL parses rawURL and refuses what is not fetched: anything but
// an absolute http(s) URL, credentials in it, and plain http to a host
// that is not loopback unless allowHTTP.
func checkURL(rawURL string, allowHTTP bool) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http", u.Host == "":
		return nil, fmt.Errorf("%w: %q is not an absolute http(s) URL", ErrURL, rawURL)
	case u.User != nil:
		return nil, fmt.Errorf("%w: %s carries credentials", ErrURL, u.Redacted())
	case u.Scheme == "http" && !allowHTTP && !isLoopback(u.Hostname()):
		return nil, fmt.Errorf("%w: %s is plain http to a host that is not loopback; cards are served over https (FetchOptions.AllowHTTP permits it)", ErrURL, rawURL)
	}
	return u, nil
}

// client returns the HTTP client of opts with CheckRedirect replaced:
// at most maxRedirects, same scheme and host only.
func client(opts *FetchOptions) *http.Client {
	c := http.DefaultClient
	switch {
	case opts.DenyPrivateNetworks:
		c = privateClient()
	case opts.HTTPClient != nil:
		c = opts.HTTPClient
	}
	cc := *c
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		switch {
		case len(via) > maxRedirects:
			return fmt.Errorf("%w: more than %d redirects", ErrRedirect, maxRedirects)
		case req.URL.Scheme != first.Scheme || !strings.EqualFold(req.URL.Host, first.Host):
			return fmt.Errorf("%w: %s redirects to another host or scheme (%s)", ErrRedirect, first.Redacted(), req.URL.Redacted())
		}
		return nil
	}
	return &cc
}

// maxAge returns the max-age of a response's Cache-Control, or zero for
// none, no-store or no-cache.
func maxAge(h http.Header) time.Duration {
	var age time.Duration
	for _, v := range h.Values("Cache-Control") {
		for _, d := range strings.Split(v, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "no-store", "no-cache":
				return 0
			case "max-age":
				if n, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64); err == nil && n > 0 && n < 1<<31 {
					age = time.Duration(n) * time.Second
				}
			}
		}
	}
	return age
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
