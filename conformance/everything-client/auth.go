package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// authScenarios are the suite's authorization scenarios (both suite
// versions). Each ends with the client listing tools and, except for the
// machine-to-machine ones, calling test-tool; before that the mock server
// demands OAuth 2.1 authorization.
var authScenarios = []string{
	"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
	"auth/scope-step-up", "auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
	"auth/pre-registration",
	"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
	"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing", "auth/iss-wrong-issuer",
	"auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
	"auth/client-credentials-jwt", "auth/client-credentials-basic",
	"auth/enterprise-managed-authorization", "auth/cross-app-access-complete-flow",
	"auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer",
}

// clientMetadataURL is the Client ID Metadata Document URL the suite
// expects as client id when the authorization server accepts such ids.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// redirectURL is where the mock authorization server redirects; nothing
// listens there, as the client reads the redirect itself.
const redirectURL = "http://localhost:3000/callback"

// authenticated runs an authorization scenario: it connects through an
// auth.Transport configured from the scenario's context, lists the tools
// and calls test-tool.
func authenticated(ctx context.Context, env *scenarioEnv) error {
	opts, machine, err := authOptions(env)
	if err != nil {
		return err
	}
	opts.Logger = debugLogger()
	tr, err := auth.NewTransport(env.url, opts)
	if err != nil {
		return err
	}
	defer tr.Close()
	env.httpClient = &http.Client{Transport: tr}
	// The server/discover probe carries the whole authorization, which
	// takes longer than the default probe timeout on a loaded machine.
	cs, err := connect(ctx, env, &mcp.ClientOptions{ProbeTimeout: 20 * time.Second})
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := tools(ctx, cs); err != nil {
		return err
	}
	if machine {
		return nil
	}
	_, err = call(ctx, cs, "test-tool", map[string]any{})
	return err
}

// authOptions builds the transport options of a scenario; machine tells
// that the grant is one without a user (the client only lists tools).
func authOptions(env *scenarioEnv) (opts *auth.TransportOptions, machine bool, err error) {
	str := func(name string) string {
		var s string
		if raw, ok := env.context[name]; ok {
			if json.Unmarshal(raw, &s) != nil {
				err = errors.Join(err, fmt.Errorf("context member %s is not a string", name))
			}
		}
		return s
	}
	opts = &auth.TransportOptions{
		Grant:             &auth.AuthorizationCodeGrant{RedirectURL: redirectURL, Authorize: headlessAuthorize},
		ClientMetadataURL: clientMetadataURL,
		ClientMetadata:    &auth.ClientMetadata{ClientName: "gomcp-everything-client"},
		OfflineAccess:     true,
	}
	switch env.scenario {
	case "auth/client-credentials-basic":
		opts.Grant = auth.ClientCredentialsGrant{}
		opts.Client = &auth.PreRegisteredClient{ClientID: str("client_id"), ClientSecret: str("client_secret")}
		machine = true
	case "auth/client-credentials-jwt":
		key, kerr := auth.ParsePrivateKeyPEM([]byte(str("private_key_pem")))
		if kerr != nil {
			return nil, false, kerr
		}
		opts.Grant = auth.ClientCredentialsGrant{}
		opts.Client = &auth.PreRegisteredClient{ClientID: str("client_id"), PrivateKey: key, SigningAlgorithm: str("signing_algorithm")}
		machine = true
	case "auth/enterprise-managed-authorization", "auth/cross-app-access-complete-flow":
		idToken := str("idp_id_token")
		opts.Grant = &auth.EnterpriseGrant{
			IdPTokenEndpoint: str("idp_token_endpoint"),
			IdPClientID:      str("idp_client_id"),
			IDToken:          func(context.Context) (string, error) { return idToken, nil },
		}
		opts.Client = &auth.PreRegisteredClient{ClientID: str("client_id"), ClientSecret: str("client_secret"), AuthMethod: "client_secret_basic"}
		machine = true
	case "auth/wif-jwt-bearer":
		jwt := str("valid_jwt")
		opts.Grant = &auth.JWTBearerGrant{Assertion: func(context.Context) (string, error) { return jwt, nil }}
		opts.Client = &auth.PreRegisteredClient{ClientID: str("client_id")}
		machine = true
	default:
		if id := str("client_id"); id != "" {
			opts.Client = &auth.PreRegisteredClient{ClientID: id, ClientSecret: str("client_secret"), Issuer: str("issuer")}
		}
	}
	return opts, machine, err
}

// headlessAuthorize plays the user's browser against the suite's mock
// authorization server, which approves at once: it fetches the
// authorization URL without following the redirect and reads the
// authorization response from the Location header.
func headlessAuthorize(ctx context.Context, authURL string) (code, state, iss string, err error) {
	hc := &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", "", "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", "", "", err
	}
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return "", "", "", fmt.Errorf("authorization endpoint answered %s without a redirect", resp.Status)
	}
	q := loc.Query()
	log.Printf("authorization response: code present %t, state present %t, iss %q", q.Get("code") != "", q.Get("state") != "", q.Get("iss"))
	if e := q.Get("error"); e != "" {
		return "", q.Get("state"), q.Get("iss"), &auth.OAuthError{Code: e, Description: q.Get("error_description")}
	}
	return q.Get("code"), q.Get("state"), q.Get("iss"), nil
}

// debugLogger logs the transport's debug records to stderr.
func debugLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(log.Writer(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}
