package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

var (
	// ErrNoProtectedResourceMetadata reports that no Protected Resource
	// Metadata document was found for a server.
	ErrNoProtectedResourceMetadata = errors.New("auth: no protected resource metadata found")
	// ErrResourceMismatch reports Protected Resource Metadata whose
	// resource is not the server the client talks to (RFC 9728 section 3.3).
	ErrResourceMismatch = errors.New("auth: protected resource metadata names another resource")
	// ErrNoAuthorizationServerMetadata reports that no authorization server
	// metadata document was found for an issuer.
	ErrNoAuthorizationServerMetadata = errors.New("auth: no authorization server metadata found")
	// ErrIssuerMismatch reports authorization server metadata whose issuer
	// is not, byte for byte, the issuer it was fetched for (RFC 8414
	// section 3.3), or an authorization response whose iss is not the
	// expected issuer (RFC 9207).
	ErrIssuerMismatch = errors.New("auth: issuer mismatch")
)

// ProtectedResourceMetadataURLs returns the URLs at which a client looks
// for the Protected Resource Metadata of the MCP server at serverURL, in
// order: the URL from the WWW-Authenticate challenge (if any), the
// path-aware well-known URL, then the root well-known URL.
func ProtectedResourceMetadataURLs(serverURL, fromChallenge string) ([]string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("auth: bad server URL %q", truncate(serverURL, 100))
	}
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	base := u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource"
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = append(out, base+p)
	}
	return append(out, base), nil
}

// DiscoverProtectedResource fetches the Protected Resource Metadata of the
// MCP server at serverURL, trying the URLs of ProtectedResourceMetadataURLs
// in order, and checks that its resource identifies serverURL: the same
// origin, and a path that is serverURL's path or a prefix of it at a
// segment boundary. hc must not follow redirects (nil means a default).
func DiscoverProtectedResource(ctx context.Context, hc *http.Client, serverURL, fromChallenge string) (*ProtectedResourceMetadata, error) {
	urls, err := ProtectedResourceMetadataURLs(serverURL, fromChallenge)
	if err != nil {
		return nil, err
	}
	hc = authClient(hc)
	var lastErr error
	for i, u := range urls {
		if i == 0 && fromChallenge != "" {
			if _, err := checkEndpoint(u); err != nil {
				// An unusable URL in the challenge: the well-known
				// URLs on the server's own origin remain.
				lastErr = err
				continue
			}
		}
		var prm ProtectedResourceMetadata
		err := fetchJSON(ctx, hc, u, &prm)
		if errors.Is(err, errNotFound) {
			lastErr = err
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := checkResource(prm.Resource, serverURL); err != nil {
			return nil, err
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("auth: protected resource metadata at %s lists no authorization server", u)
		}
		return &prm, nil
	}
	return nil, fmt.Errorf("%w for %s: %w", ErrNoProtectedResourceMetadata, serverURL, lastErr)
}

// checkResource checks that the PRM resource identifies serverURL.
func checkResource(resource, serverURL string) error {
	r, err := url.Parse(resource)
	if err != nil || r.Host == "" || r.Fragment != "" {
		return fmt.Errorf("%w: %q is not an absolute URL", ErrResourceMismatch, truncate(resource, 100))
	}
	s, err := url.Parse(serverURL)
	if err != nil {
		return fmt.Errorf("auth: bad server URL: %w", err)
	}
	if origin(r) != origin(s) {
		return fmt.Errorf("%w: %q for server %q", ErrResourceMismatch, truncate(resource, 100), serverURL)
	}
	rp, sp := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(s.EscapedPath(), "/")
	if rp != "" && rp != sp && !strings.HasPrefix(sp, rp+"/") {
		return fmt.Errorf("%w: %q for server %q", ErrResourceMismatch, truncate(resource, 100), serverURL)
	}
	return nil
}

// AuthorizationServerMetadataURLs returns the URLs at which a client looks
// for the metadata of the authorization server issuer, in the order the MCP
// specification sets: for an issuer with a path, RFC 8414 path insertion,
// OpenID Connect path insertion, then OpenID Connect path appending; for
// one without, the RFC 8414 and OpenID Connect root forms.
func AuthorizationServerMetadataURLs(issuer string) ([]string, error) {
	u, err := checkEndpoint(issuer)
	if err != nil {
		return nil, err
	}
	if u.RawQuery != "" {
		return nil, fmt.Errorf("auth: issuer %q has a query", truncate(issuer, 100))
	}
	root := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{root + "/.well-known/oauth-authorization-server", root + "/.well-known/openid-configuration"}, nil
	}
	return []string{
		root + "/.well-known/oauth-authorization-server" + p,
		root + "/.well-known/openid-configuration" + p,
		root + p + "/.well-known/openid-configuration",
	}, nil
}

// DiscoverAuthorizationServer fetches the metadata of the authorization
// server issuer from the URLs of AuthorizationServerMetadataURLs, in order,
// and returns the first document found. A document whose issuer is not
// exactly issuer is refused with ErrIssuerMismatch, and discovery stops
// there. Endpoints in the metadata must be https (http only on loopback).
func DiscoverAuthorizationServer(ctx context.Context, hc *http.Client, issuer string) (*AuthorizationServerMetadata, error) {
	urls, err := AuthorizationServerMetadataURLs(issuer)
	if err != nil {
		return nil, err
	}
	hc = authClient(hc)
	var lastErr error
	for _, u := range urls {
		var md AuthorizationServerMetadata
		err := fetchJSON(ctx, hc, u, &md)
		if errors.Is(err, errNotFound) {
			lastErr = err
			continue
		}
		if err != nil {
			return nil, err
		}
		if md.Issuer != issuer {
			return nil, fmt.Errorf("%w: metadata at %s names issuer %q, expected %q", ErrIssuerMismatch, u, truncate(md.Issuer, 100), issuer)
		}
		if err := checkMetadataEndpoints(&md); err != nil {
			return nil, err
		}
		return &md, nil
	}
	return nil, fmt.Errorf("%w for %s: %w", ErrNoAuthorizationServerMetadata, issuer, lastErr)
}

// checkMetadataEndpoints checks the endpoints a client may send secrets to.
func checkMetadataEndpoints(md *AuthorizationServerMetadata) error {
	for _, e := range []string{md.AuthorizationEndpoint, md.TokenEndpoint, md.RegistrationEndpoint} {
		if e == "" {
			continue
		}
		if _, err := checkEndpoint(e); err != nil {
			return err
		}
	}
	if md.TokenEndpoint == "" {
		return fmt.Errorf("auth: authorization server %s has no token endpoint", md.Issuer)
	}
	return nil
}

// legacyAuthorizationServer finds the authorization server of a server
// that publishes no Protected Resource Metadata, as the 2025-03-26 revision
// of MCP did: the server's origin is the authorization base URL; its
// RFC 8414 metadata (at the origin's well-known URLs) is used when present,
// else the default endpoints /authorize, /token and /register.
//
// The metadata here was not found through an issuer identifier but through
// the MCP server's own origin, so its issuer is accepted when it is on that
// origin (for example "https://mcp.example.com/oauth").
func legacyAuthorizationServer(ctx context.Context, hc *http.Client, serverURL string) (*AuthorizationServerMetadata, error) {
	s, err := checkEndpoint(serverURL)
	if err != nil {
		return nil, err
	}
	base := s.Scheme + "://" + s.Host
	hc = authClient(hc)
	for _, u := range []string{base + "/.well-known/oauth-authorization-server", base + "/.well-known/openid-configuration"} {
		var md AuthorizationServerMetadata
		err := fetchJSON(ctx, hc, u, &md)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		iu, err := url.Parse(md.Issuer)
		if err != nil || iu.Host == "" || origin(iu) != origin(s) {
			return nil, fmt.Errorf("%w: metadata at %s names issuer %q, not on %s", ErrIssuerMismatch, u, truncate(md.Issuer, 100), base)
		}
		if err := checkMetadataEndpoints(&md); err != nil {
			return nil, err
		}
		return &md, nil
	}
	return &AuthorizationServerMetadata{
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
	}, nil
}
