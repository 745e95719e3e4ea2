package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gomcp/sdk/strictjson"
)

// ErrInsecureEndpoint reports an endpoint that is neither https nor http on
// a loopback host. Tokens, codes and secrets travel only over TLS.
var ErrInsecureEndpoint = errors.New("auth: endpoint must use https (http only on loopback)")

// maxMetadataBody bounds every document and response read from a server.
const maxMetadataBody = 1 << 20

// defaultAuthHTTPClient talks to authorization servers and metadata
// endpoints: bounded in time and never following redirects, so a request
// that carries a secret cannot be sent on to another host.
var defaultAuthHTTPClient = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: noRedirects,
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// authClient returns a copy of hc (or the default) that does not follow
// redirects.
func authClient(hc *http.Client) *http.Client {
	if hc == nil {
		return defaultAuthHTTPClient
	}
	c := *hc
	c.CheckRedirect = noRedirects
	return &c
}

// checkEndpoint parses raw and checks that it is an absolute https URL, or
// http on a loopback host, without a fragment.
func checkEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("auth: bad URL %q: %w", truncate(raw, 100), err)
	}
	if u.Host == "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("auth: %q is not an absolute URL without fragment or user info", truncate(raw, 100))
	}
	switch u.Scheme {
	case "https":
		return u, nil
	case "http":
		if isLoopback(u.Hostname()) {
			return u, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrInsecureEndpoint, truncate(raw, 100))
}

// isLoopback reports whether host names the local machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// origin returns scheme://host[:port] of u, lower-cased.
func origin(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// errNotFound tells that a metadata document does not exist at a URL.
var errNotFound = errors.New("not found")

// fetchJSON fetches raw and decodes its JSON body into v. A 404 (or another
// 4xx) yields an error wrapping errNotFound, so discovery tries the next URL.
func fetchJSON(ctx context.Context, hc *http.Client, raw string, v any) error {
	if _, err := checkEndpoint(raw); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return fmt.Errorf("auth: GET %s: %w", raw, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("auth: GET %s: %w", raw, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		if resp.StatusCode >= 400 && resp.StatusCode < 500 {
			return fmt.Errorf("auth: GET %s: %s: %w", raw, resp.Status, errNotFound)
		}
		return fmt.Errorf("auth: GET %s: %s", raw, resp.Status)
	}
	body, err := readLimited(resp.Body)
	if err != nil {
		return fmt.Errorf("auth: GET %s: %w", raw, err)
	}
	if err := strictjson.Unmarshal(body, v); err != nil {
		return fmt.Errorf("auth: GET %s: decoding: %w", raw, err)
	}
	return nil
}

// readLimited reads a body of at most maxMetadataBody bytes.
func readLimited(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxMetadataBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxMetadataBody {
		return nil, fmt.Errorf("response larger than %d bytes", maxMetadataBody)
	}
	return b, nil
}

// postForm sends form to endpoint with extra headers and returns the
// response status, headers and body. The caller checks the status.
func postForm(ctx context.Context, hc *http.Client, endpoint string, form url.Values, header http.Header) (int, http.Header, []byte, error) {
	if _, err := checkEndpoint(endpoint); err != nil {
		return 0, nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		// The url.Error names only the endpoint; the body (with secrets)
		// is never part of it.
		return 0, nil, nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	body, err := readLimited(resp.Body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// oauthErrorFrom builds the error for a failed response of an OAuth
// endpoint: an *OAuthError when the body is an RFC 6749 error object.
func oauthErrorFrom(endpoint string, status int, body []byte) error {
	var e struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if strictjson.Unmarshal(body, &e) == nil && e.Error != "" {
		return &OAuthError{StatusCode: status, Code: e.Error, Description: e.ErrorDescription, Endpoint: endpoint}
	}
	return fmt.Errorf("auth: %s endpoint: HTTP %d %s", endpoint, status, http.StatusText(status))
}
