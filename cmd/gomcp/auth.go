package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// errLoginRequired is the failure of an authorization that would need a
// person: without a terminal, or with --no-interactive.
var errLoginRequired = errors.New("authorization needs a login: run gomcp login URL on a terminal, or give client credentials")

// tokenStorePath is where tokens are kept: --token-store, else
// $XDG_CONFIG_HOME/gomcp/tokens.json or ~/.config/gomcp/tokens.json.
func tokenStorePath(env *environ, o *options) string {
	if o.tokenStore != "" {
		return o.tokenStore
	}
	base := env.getenv("XDG_CONFIG_HOME")
	if base == "" {
		if env.home == "" {
			return ""
		}
		base = filepath.Join(env.home, ".config")
	}
	return filepath.Join(base, "gomcp", "tokens.json")
}

// authorizer is the OAuth side of an HTTP target: the auth Transport over
// the observer, and the loopback redirect of an interactive login.
type authorizer struct {
	tr       *auth.Transport
	redirect *auth.LoopbackRedirect
}

func (a *authorizer) Close() {
	if a == nil {
		return
	}
	_ = a.tr.Close()
	if a.redirect != nil {
		_ = a.redirect.Close()
	}
}

// httpClient returns the HTTP client of a URL target: the observer under
// an OAuth transport when the URL allows one (https, or http on a
// loopback host). interactive lets an authorization wait for a person in
// a browser.
func httpClient(env *environ, o *options, t *target, interactive bool) (*http.Client, *observer, *authorizer, error) {
	obs := newObserver()
	if !strings.HasPrefix(t.url, "https://") && !isLoopbackURL(t.url) {
		return &http.Client{Transport: obs}, obs, nil, nil
	}
	opts := &auth.TransportOptions{
		Base:           obs,
		ClientMetadata: &auth.ClientMetadata{ClientName: "gomcp"},
		OfflineAccess:  true,
	}
	if path := tokenStorePath(env, o); path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			opts.Store = auth.NewFileTokenStore(path)
		}
	}
	secret := o.clientSecret
	if secret == "" {
		secret = env.getenv("GOMCP_CLIENT_SECRET")
	}
	if o.clientID != "" {
		opts.Client = &auth.PreRegisteredClient{ClientID: o.clientID, ClientSecret: secret}
	}
	a := &authorizer{}
	switch {
	case o.clientCredentials:
		if o.clientID == "" || secret == "" {
			return nil, nil, nil, usageError("--client-credentials needs --client-id and --client-secret (or GOMCP_CLIENT_SECRET)")
		}
		opts.Grant = auth.ClientCredentialsGrant{}
	case interactive:
		redirect, err := auth.NewLoopbackRedirect(&auth.LoopbackOptions{Output: env.stderr})
		if err != nil {
			return nil, nil, nil, err
		}
		a.redirect = redirect
		opts.Grant = &auth.AuthorizationCodeGrant{RedirectURL: redirect.RedirectURL(), Authorize: redirect.Authorize}
	default:
		opts.Grant = &auth.AuthorizationCodeGrant{
			RedirectURL: "http://127.0.0.1/callback",
			Authorize: func(context.Context, string) (string, string, string, error) {
				return "", "", "", errLoginRequired
			},
		}
	}
	tr, err := auth.NewTransport(t.url, opts)
	if err != nil {
		a.Close()
		return &http.Client{Transport: obs}, obs, nil, nil
	}
	a.tr = tr
	return &http.Client{Transport: tr}, obs, a, nil
}

func isLoopbackURL(u string) bool {
	for _, p := range []string{"http://127.", "http://localhost:", "http://localhost/", "http://[::1]"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// loginTimeout bounds gomcp login, which waits for a person.
const loginTimeout = 10 * time.Minute

// cmdLogin authorizes gomcp at a server and stores the token.
func cmdLogin(ctx context.Context, c *cmdCtx) error {
	if c.target.url == "" || len(c.positional) > 0 {
		return usageError("login: gomcp login [--client-id ID] URL")
	}
	timeout := c.o.timeout
	if !c.o.noInteractive && !c.o.clientCredentials {
		timeout = max(timeout, loginTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c.o.forceInteractive = !c.o.noInteractive
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Ping(ctx, nil); err != nil {
		return s.fail(err, "ping after login")
	}
	tok := s.auth.token()
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			URL        string   `json:"url"`
			Authorized bool     `json:"authorized"`
			Scopes     []string `json:"scopes,omitempty"`
			Store      string   `json:"tokenStore,omitempty"`
		}{c.target.url, tok != nil, scopesOf(tok), tokenStorePath(c.env, c.o)})
	}
	if tok == nil {
		fmt.Fprintf(c.env.stdout, "%s did not ask for authorization\n", c.target.url)
		return nil
	}
	fmt.Fprintf(c.env.stdout, "logged in to %s", c.target.url)
	if len(tok.Scopes) > 0 {
		fmt.Fprintf(c.env.stdout, " (scopes %s)", strings.Join(tok.Scopes, " "))
	}
	fmt.Fprintf(c.env.stdout, "; token stored in %s\n", tokenStorePath(c.env, c.o))
	return nil
}

func (a *authorizer) token() *auth.Token {
	if a == nil || a.tr == nil {
		return nil
	}
	return a.tr.Token()
}

func scopesOf(t *auth.Token) []string {
	if t == nil {
		return nil
	}
	return t.Scopes
}
