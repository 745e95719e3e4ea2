package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gomcp/sdk/strictjson"
)

// ErrRegistrationRefused reports a Dynamic Client Registration request that
// the authorization server refused.
var ErrRegistrationRefused = errors.New("auth: client registration refused")

// ClientMetadata is the client metadata of RFC 7591 section 2 that a client
// sends to a registration endpoint (Dynamic Client Registration), also the
// content of a Client ID Metadata Document.
type ClientMetadata struct {
	// ClientID is set only in a Client ID Metadata Document, where it is
	// the document's own URL.
	ClientID                string   `json:"client_id,omitempty"`
	RedirectURIs            []string `json:"redirect_uris,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	LogoURI                 string   `json:"logo_uri,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	Contacts                []string `json:"contacts,omitempty"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
	JWKSURI                 string   `json:"jwks_uri,omitempty"`
	// ApplicationType is "native" (command-line and desktop programs,
	// loopback redirects) or "web", from OpenID Connect Dynamic Client
	// Registration; MCP 2026-07-28 requires it in registrations. When
	// empty, the client derives it from RedirectURIs.
	ApplicationType string `json:"application_type,omitempty"`
}

// ClientInformation is a client registration: the response of a
// registration endpoint (RFC 7591 section 3.2.1), or pre-registered
// credentials.
type ClientInformation struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret,omitempty"`
	ClientSecretExpiresAt   int64  `json:"client_secret_expires_at,omitempty"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method,omitempty"`
}

// applicationType returns "native" when every redirect URI is a loopback
// http URL or uses a private scheme, else "web".
func applicationType(redirects []string) string {
	for _, r := range redirects {
		u, err := url.Parse(r)
		if err != nil {
			return "web"
		}
		if u.Scheme == "https" || (u.Scheme == "http" && !isLoopback(u.Hostname())) {
			return "web"
		}
	}
	return "native"
}

// RegisterClient registers a client at an RFC 7591 registration endpoint
// and returns its credentials. A refusal yields an error wrapping
// ErrRegistrationRefused (and an *OAuthError when the server explained).
func RegisterClient(ctx context.Context, hc *http.Client, endpoint string, md *ClientMetadata) (*ClientInformation, error) {
	if _, err := checkEndpoint(endpoint); err != nil {
		return nil, err
	}
	m := *md
	if m.ApplicationType == "" {
		m.ApplicationType = applicationType(m.RedirectURIs)
	}
	body, err := strictjson.Marshal(&m)
	if err != nil {
		return nil, fmt.Errorf("auth: encoding client metadata: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := authClient(hc).Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	rb, err := readLimited(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("auth: POST %s: %w", endpoint, err)
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %w", ErrRegistrationRefused, oauthErrorFrom("registration", resp.StatusCode, rb))
	}
	var info ClientInformation
	if err := strictjson.Unmarshal(rb, &info); err != nil {
		return nil, fmt.Errorf("%w: decoding the response: %w", ErrRegistrationRefused, err)
	}
	if info.ClientID == "" {
		return nil, fmt.Errorf("%w: response has no client_id", ErrRegistrationRefused)
	}
	return &info, nil
}

// checkClientMetadataURL checks that raw can be a URL client id: an https
// URL with a path and without a fragment (Client ID Metadata Documents).
func checkClientMetadataURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("auth: client metadata URL %q must be an https URL with a path", truncate(raw, 100))
	}
	return nil
}

// ClientMetadataDocumentHandler serves md as a Client ID Metadata
// Document, for a program that hosts its own at md.ClientID (which must
// then be the URL this handler answers at). It checks the fields the
// document needs: client_id, client_name and redirect_uris.
func ClientMetadataDocumentHandler(md *ClientMetadata) (http.Handler, error) {
	if err := checkClientMetadataURL(md.ClientID); err != nil {
		return nil, err
	}
	if md.ClientName == "" || len(md.RedirectURIs) == 0 {
		return nil, errors.New("auth: a client metadata document needs client_name and redirect_uris")
	}
	doc := *md
	if doc.TokenEndpointAuthMethod == "" {
		doc.TokenEndpointAuthMethod = "none"
	}
	body, err := strictjson.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Write(body)
	}), nil
}
