package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// maxMetadataBytes bounds an authorization server metadata document.
const maxMetadataBytes = 256 << 10

// metadataURLs returns the URLs where the metadata of issuer may be, in
// the order MCP tries them: RFC 8414 path insertion, OpenID Connect
// discovery path insertion, then OpenID Connect path appending (for an
// issuer with a path); the two root forms otherwise.
func metadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme == "" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("auth: issuer %q is not an absolute URL without query or fragment", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
		origin + path + "/.well-known/openid-configuration",
	}, nil
}

// fetchIssuerMetadata fetches the metadata of issuer and checks that it
// names issuer, byte for byte (RFC 8414 section 3.3).
func fetchIssuerMetadata(ctx context.Context, hc *http.Client, issuer string) (*AuthorizationServerMetadata, error) {
	urls, err := metadataURLs(issuer)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, u := range urls {
		var md AuthorizationServerMetadata
		status, err := getJSON(ctx, hc, u, maxMetadataBytes, &md)
		if err != nil {
			if status >= 400 && status < 500 {
				errs = append(errs, err)
				continue // try the next form
			}
			return nil, err
		}
		if md.Issuer != issuer {
			return nil, fmt.Errorf("metadata at %s names issuer %q, not %q", u, md.Issuer, issuer)
		}
		return &md, nil
	}
	return nil, fmt.Errorf("no metadata for issuer %s: %w", issuer, errors.Join(errs...))
}

// getJSON fetches u and decodes its JSON body, of at most max bytes, into
// v strictly. It returns the HTTP status (0 if none was received).
func getJSON(ctx context.Context, hc *http.Client, u string, max int64, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return resp.StatusCode, fmt.Errorf("GET %s: status %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(body)) > max {
		return resp.StatusCode, fmt.Errorf("GET %s: body larger than %d bytes", u, max)
	}
	if err := strictjson.Unmarshal(body, v); err != nil {
		return resp.StatusCode, fmt.Errorf("GET %s: %w", u, err)
	}
	return resp.StatusCode, nil
}

// checkFetchURL checks that a URL learned from metadata may be fetched:
// https, or http only when the issuer itself is http (a local test
// server).
func checkFetchURL(raw, issuer string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("bad URL %q", raw)
	}
	if u.Scheme == "https" || (u.Scheme == "http" && strings.HasPrefix(issuer, "http://")) {
		return nil
	}
	return fmt.Errorf("URL %q must use https", raw)
}
