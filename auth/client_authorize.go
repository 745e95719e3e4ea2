package auth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// authKind says why the Transport authorizes.
type authKind int

const (
	authUnauthorized authKind = iota // a 401
	authStepUp                       // a 403 insufficient_scope
	authRefresh                      // a token about to expire
)

// authorize obtains a new token, unless the token changed since generation
// gen (another request already replaced it). Concurrent callers share one
// authorization in progress. The authorization runs in its own goroutine,
// bounded by AuthorizationTimeout and Close rather than by ctx: a caller
// that gives up (a request with a short deadline) does not abort the user's
// authorization, which later requests then use.
func (t *Transport) authorize(ctx context.Context, gen uint64, chal []Challenge, kind authKind) error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return ErrTransportClosed
	}
	if t.gen != gen {
		t.mu.Unlock()
		return nil
	}
	f := t.flight
	if f == nil {
		f = &flight{done: make(chan struct{})}
		t.flight = f
		t.running.Add(1)
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.opts.AuthorizationTimeout)
		stop := context.AfterFunc(t.closing, cancel)
		go func() {
			defer t.running.Done()
			defer cancel()
			defer stop()
			t.fly(fctx, f, chal, kind)
		}()
	}
	t.mu.Unlock()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fly runs one authorization and publishes its outcome.
func (t *Transport) fly(ctx context.Context, f *flight, chal []Challenge, kind authKind) {
	tok, err := t.obtain(ctx, chal, kind)
	t.mu.Lock()
	t.flight = nil
	var oe *OAuthError
	switch {
	case err == nil:
		t.tok = tok
		t.gen++
	case kind == authRefresh && errors.As(err, &oe) && oe.Code == "invalid_grant" && t.tok != nil:
		// The refresh token is spent: keep the access token while it
		// lasts, then authorize afresh.
		nt := *t.tok
		nt.RefreshToken = ""
		t.tok = &nt
	}
	t.mu.Unlock()
	if err == nil && t.opts.Store != nil {
		if serr := t.opts.Store.Save(ctx, t.serverURL, tok); serr != nil {
			t.log.Debug("auth: saving the token failed", "err", serr)
		}
	}
	f.err = err
	close(f.done)
}

// Authorize runs discovery and authorization now, before any request, as
// a command-line program's "login" step does; requests then start with a
// token. Without a server challenge, scopes come from the server's
// metadata.
func (t *Transport) Authorize(ctx context.Context) error {
	t.mu.Lock()
	gen := t.gen
	t.mu.Unlock()
	return t.authorize(ctx, gen, nil, authUnauthorized)
}

// obtain runs discovery and a grant (or a refresh) and returns the token.
func (t *Transport) obtain(ctx context.Context, chal []Challenge, kind authKind) (*Token, error) {
	t.mu.Lock()
	old := t.tok
	t.mu.Unlock()
	if kind == authRefresh {
		return t.refresh(ctx, old)
	}
	md, resource, prm, err := t.discover(ctx, chal)
	if err != nil {
		return nil, err
	}
	if old != nil && old.RefreshToken != "" && kind == authUnauthorized && old.Issuer == md.Issuer && old.Resource == resource {
		if tok, err := t.refresh(ctx, old); err == nil {
			return tok, nil
		}
	}
	scopes := t.selectScopes(md, prm, chal)
	client, err := t.clientFor(ctx, md)
	if err != nil {
		return nil, err
	}
	x := &Exchange{Metadata: md, Resource: resource, Scopes: scopes, ClientID: client.id, hc: t.hc, client: client, now: t.now, legacy: prm == nil}
	x.dpop, err = t.dpopFor(md, prm, chal)
	if err != nil {
		return nil, err
	}
	t.log.Debug("auth: authorizing", "issuer", md.Issuer, "resource", resource, "scopes", scopes, "grant", t.opts.Grant.GrantType(), "dpop", x.dpop != nil)
	tok, err := t.opts.Grant.Grant(ctx, x)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.requested = scopes
	t.mu.Unlock()
	return tok, nil
}

// discover finds the authorization server and the resource indicator:
// through Protected Resource Metadata, or, for a server without it, the
// 2025-03-26 fallbacks.
func (t *Transport) discover(ctx context.Context, chal []Challenge) (*AuthorizationServerMetadata, string, *ProtectedResourceMetadata, error) {
	prm, err := DiscoverProtectedResource(ctx, t.hc, t.serverURL, resourceMetadataURL(chal))
	if errors.Is(err, ErrNoProtectedResourceMetadata) {
		t.log.Debug("auth: no protected resource metadata; using the 2025-03-26 fallbacks")
		md, err := legacyAuthorizationServer(ctx, t.hc, t.serverURL)
		if err != nil {
			return nil, "", nil, err
		}
		t.setServer(md, t.serverURL, true)
		return md, t.serverURL, nil, nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	issuer := prm.AuthorizationServers[0]
	if c := t.opts.Client; c != nil && c.Issuer != "" {
		if !slices.Contains(prm.AuthorizationServers, c.Issuer) {
			return nil, "", nil, fmt.Errorf("auth: the server's authorization servers %q do not include %q, which issued the pre-registered client", prm.AuthorizationServers, c.Issuer)
		}
		issuer = c.Issuer
	}
	md, err := DiscoverAuthorizationServer(ctx, t.hc, issuer)
	if err != nil {
		return nil, "", nil, err
	}
	t.setServer(md, prm.Resource, false)
	return md, prm.Resource, prm, nil
}

// setServer records the authorization server in use. When it changes,
// scopes requested from the old one no longer count.
func (t *Transport) setServer(md *AuthorizationServerMetadata, resource string, legacy bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.md != nil && t.md.Issuer != md.Issuer {
		t.log.Debug("auth: the authorization server changed", "from", t.md.Issuer, "to", md.Issuer)
		t.requested = nil
	}
	t.md, t.resource, t.legacy = md, resource, legacy
}

// selectScopes applies MCP's scope selection: the challenge's scope, else
// the resource's scopes_supported, else none, in union with the scopes
// requested so far from the same authorization server (a step-up keeps
// what was granted). Configured scopes and offline_access (when
// wanted and offered) are added.
func (t *Transport) selectScopes(md *AuthorizationServerMetadata, prm *ProtectedResourceMetadata, chal []Challenge) []string {
	var scopes []string
	if s := challengeScopes(chal); len(s) > 0 {
		scopes = s
	} else if prm != nil {
		scopes = slices.Clone(prm.ScopesSupported)
	}
	t.mu.Lock()
	requested := t.requested
	t.mu.Unlock()
	scopes = union(requested, scopes) // keep what was granted before
	scopes = union(scopes, t.opts.Scopes)
	if t.opts.OfflineAccess && slices.Contains(md.ScopesSupported, "offline_access") {
		scopes = union(scopes, []string{"offline_access"})
	}
	return scopes
}

// dpopFor returns the prover for token requests to md, or nil when tokens
// are not DPoP-bound: DPoP is used when the authorization server supports
// it and the resource does (its metadata or a DPoP challenge says so).
func (t *Transport) dpopFor(md *AuthorizationServerMetadata, prm *ProtectedResourceMetadata, chal []Challenge) (*DPoPProver, error) {
	if t.opts.DisableDPoP || len(md.DPoPSigningAlgValuesSupported) == 0 {
		return nil, nil
	}
	rsDPoP := prm != nil && (len(prm.DPoPSigningAlgValuesSupported) > 0 || prm.DPoPBoundAccessTokensRequired)
	for _, c := range chal {
		rsDPoP = rsDPoP || strings.EqualFold(c.Scheme, "DPoP")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !rsDPoP && t.dpop == nil {
		return nil, nil
	}
	if t.dpop == nil {
		p, err := NewDPoPProver(nil, "")
		if err != nil {
			return nil, err
		}
		t.dpop = p
	}
	if !t.dpop.supportsAlg(md.DPoPSigningAlgValuesSupported) {
		return nil, nil
	}
	return t.dpop, nil
}

// refresh renews tok with its refresh token at the server that issued it.
func (t *Transport) refresh(ctx context.Context, tok *Token) (*Token, error) {
	t.mu.Lock()
	md := t.md
	t.mu.Unlock()
	if md == nil || md.Issuer != tok.Issuer {
		if tok.Issuer == "" {
			return nil, errors.New("auth: cannot refresh a token of unknown issuer")
		}
		var err error
		if md, err = DiscoverAuthorizationServer(ctx, t.hc, tok.Issuer); err != nil {
			return nil, err
		}
	}
	client, err := t.refreshClient(ctx, md, tok)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	p := t.dpop
	t.mu.Unlock()
	x := &Exchange{Metadata: md, Resource: tok.Resource, Scopes: tok.Scopes, ClientID: client.id, hc: t.hc, client: client, now: t.now}
	if tok.TokenType == "DPoP" {
		x.dpop = p
	}
	nt, err := x.TokenRequest(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}})
	if err != nil {
		return nil, err
	}
	if nt.RefreshToken == "" {
		nt.RefreshToken = tok.RefreshToken
	}
	t.log.Debug("auth: token refreshed", "issuer", md.Issuer)
	return nt, nil
}

// refreshClient returns the client that refreshes tok: the one it was
// issued to. A token from an earlier run may belong to a client this run
// has not registered; it is then taken as a dynamically registered public
// client, which needs only its id (a confidential one is refused by the
// server, and a new authorization follows).
func (t *Transport) refreshClient(ctx context.Context, md *AuthorizationServerMetadata, tok *Token) (*clientInfo, error) {
	t.mu.Lock()
	c := t.clients[md.Issuer]
	t.mu.Unlock()
	pre := t.opts.Client
	known := c != nil || tok.ClientID == "" || tok.ClientID == t.opts.ClientMetadataURL || pre != nil && pre.ClientID == tok.ClientID
	if !known {
		return &clientInfo{id: tok.ClientID, method: "none"}, nil
	}
	c, err := t.clientFor(ctx, md)
	if err != nil {
		return nil, err
	}
	if tok.ClientID != "" && c.id != tok.ClientID {
		return nil, errors.New("auth: the token was issued to another client")
	}
	return c, nil
}

// clientFor returns the client's identity at md, in MCP's order of
// preference: pre-registered credentials, a Client ID Metadata Document
// URL, then Dynamic Client Registration. Registrations are kept per
// issuer and never used with another server.
func (t *Transport) clientFor(ctx context.Context, md *AuthorizationServerMetadata) (*clientInfo, error) {
	t.mu.Lock()
	c := t.clients[md.Issuer]
	t.mu.Unlock()
	if c != nil {
		return c, nil
	}
	switch pre := t.opts.Client; {
	case pre != nil && (pre.Issuer == "" || pre.Issuer == md.Issuer):
		c = &clientInfo{id: pre.ClientID, secret: pre.ClientSecret, key: pre.PrivateKey, alg: pre.SigningAlgorithm, keyID: pre.KeyID, method: pre.AuthMethod}
	case t.opts.ClientMetadataURL != "" && md.ClientIDMetadataDocumentSupported:
		c = &clientInfo{id: t.opts.ClientMetadataURL, method: "none"}
	case md.RegistrationEndpoint != "":
		info, err := RegisterClient(ctx, t.hc, md.RegistrationEndpoint, t.registrationMetadata(md))
		if err != nil {
			return nil, err
		}
		t.log.Debug("auth: registered", "issuer", md.Issuer)
		c = &clientInfo{id: info.ClientID, secret: info.ClientSecret, method: info.TokenEndpointAuthMethod}
	default:
		return nil, fmt.Errorf("%w %s", ErrNoClientIdentity, md.Issuer)
	}
	if c.method == "" {
		c.method = selectAuthMethod(c, md)
	}
	t.mu.Lock()
	t.clients[md.Issuer] = c
	t.mu.Unlock()
	return c, nil
}

// registrationMetadata fills the defaults of the DCR request.
func (t *Transport) registrationMetadata(md *AuthorizationServerMetadata) *ClientMetadata {
	m := ClientMetadata{ClientName: "MCP client"}
	if t.opts.ClientMetadata != nil {
		m = *t.opts.ClientMetadata
	}
	if g, ok := t.opts.Grant.(*AuthorizationCodeGrant); ok {
		if len(m.RedirectURIs) == 0 {
			m.RedirectURIs = []string{g.RedirectURL}
		}
		if len(m.ResponseTypes) == 0 {
			m.ResponseTypes = []string{"code"}
		}
	}
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{t.opts.Grant.GrantType(), "refresh_token"}
	}
	if m.TokenEndpointAuthMethod == "" {
		sup := md.TokenEndpointAuthMethodsSupported
		switch {
		case len(sup) == 0 || slices.Contains(sup, "none"):
			m.TokenEndpointAuthMethod = "none"
		case slices.Contains(sup, "client_secret_basic"):
			m.TokenEndpointAuthMethod = "client_secret_basic"
		case slices.Contains(sup, "client_secret_post"):
			m.TokenEndpointAuthMethod = "client_secret_post"
		}
	}
	return &m
}

// selectAuthMethod picks the token endpoint authentication method for c
// among those md supports.
func selectAuthMethod(c *clientInfo, md *AuthorizationServerMetadata) string {
	var candidates []string
	switch {
	case c.key != nil:
		candidates = []string{"private_key_jwt"}
	case c.secret != "":
		candidates = []string{"client_secret_basic", "client_secret_post"}
	default:
		return "none"
	}
	for _, m := range candidates {
		if slices.Contains(md.TokenEndpointAuthMethodsSupported, m) {
			return m
		}
	}
	return candidates[0]
}
