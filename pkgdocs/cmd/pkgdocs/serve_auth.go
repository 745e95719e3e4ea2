package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gomcp/sdk/auth"
)

// introspectionSecretEnv names the environment variable that holds the
// secret pkgdocs presents to the introspection endpoint. It is not a
// flag: flags show in process lists.
const introspectionSecretEnv = "PKGDOCS_INTROSPECTION_SECRET"

// protection is what OAuth puts in front of the team server: the bearer
// token middleware of the auth module around the MCP endpoint, and the
// Protected Resource Metadata document (RFC 9728) that tells clients
// which authorization server issues tokens for it, served at the
// endpoint's well-known URLs.
type protection struct {
	protect  func(http.Handler) http.Handler
	prm      http.Handler
	prmPaths []string
}

// newProtection builds the OAuth side of cfg, or returns nil when cfg
// names no issuer (the server then serves without authorization, for a
// trusted network or a proxy that authenticates). cfg.resource is
// canonical.
func newProtection(cfg *teamConfig) (*protection, error) {
	if cfg.issuer == "" {
		if cfg.introspectionURL != "" || cfg.introspectionClientID != "" {
			return nil, errors.New("--introspection-url and --introspection-client-id need --issuer, the authorization server clients get tokens from")
		}
		return nil, nil
	}
	if cfg.resource == "" {
		return nil, errors.New("--issuer needs --resource, the public URL of the MCP endpoint (https://pkgdocs.example.com/mcp), which tokens must name as their audience")
	}
	verifier, err := newVerifier(cfg)
	if err != nil {
		return nil, err
	}
	scopes := strings.Fields(cfg.scope)
	prmURL, err := auth.ProtectedResourceMetadataURL(cfg.resource)
	if err != nil {
		return nil, fmt.Errorf("--resource: %w", err)
	}
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: prmURL,
		Resource:            cfg.resource,
		Scopes:              auth.ScopeRules{Endpoint: scopes},
		Logger:              cfg.logger,
	})
	if err != nil {
		return nil, fmt.Errorf("OAuth: %w", err)
	}
	prm, err := auth.ProtectedResourceMetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:               cfg.resource,
		AuthorizationServers:   []string{cfg.issuer},
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "pkgdocs",
	})
	if err != nil {
		return nil, fmt.Errorf("protected resource metadata: %w", err)
	}
	prmPath, err := auth.ProtectedResourceMetadataPath(cfg.resource)
	if err != nil {
		return nil, fmt.Errorf("--resource: %w", err)
	}
	paths := []string{prmPath}
	if root := "/.well-known/oauth-protected-resource"; prmPath != root {
		paths = append(paths, root) // the host serves one endpoint
	}
	return &protection{protect: protect, prm: prm, prmPaths: paths}, nil
}

// newVerifier returns the verifier of cfg's tokens: JWTs checked with the
// issuer's published keys, or with --introspection-url, whatever the
// introspection endpoint says of them (RFC 7662, for opaque tokens).
func newVerifier(cfg *teamConfig) (auth.TokenVerifier, error) {
	if cfg.introspectionURL == "" {
		if cfg.introspectionClientID != "" {
			return nil, errors.New("--introspection-client-id needs --introspection-url")
		}
		v, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{Issuer: cfg.issuer, Audience: cfg.resource, HTTPClient: cfg.httpClient})
		if err != nil {
			return nil, fmt.Errorf("--issuer: %w", err)
		}
		return v, nil
	}
	if cfg.introspectionClientID == "" || cfg.introspectionSecret == "" {
		return nil, fmt.Errorf("--introspection-url needs --introspection-client-id and the secret in %s", introspectionSecretEnv)
	}
	v, err := auth.NewIntrospectionVerifier(&auth.IntrospectionVerifierOptions{
		Endpoint:     cfg.introspectionURL,
		Audience:     cfg.resource,
		ClientID:     cfg.introspectionClientID,
		ClientSecret: cfg.introspectionSecret,
		HTTPClient:   cfg.httpClient,
	})
	if err != nil {
		return nil, fmt.Errorf("--introspection-url: %w", err)
	}
	return v, nil
}
