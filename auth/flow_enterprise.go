package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// EnterpriseGrant is enterprise-managed authorization (the MCP extension
// built on the Identity Assertion JWT Authorization Grant): the user's
// identity provider exchanges the user's ID token (RFC 8693) for an ID-JAG
// addressed to the MCP server's authorization server, which the client
// then presents there as a JWT bearer grant (RFC 7523), authenticated with
// its own credentials (TransportOptions.Client).
type EnterpriseGrant struct {
	// IdPTokenEndpoint is the identity provider's token endpoint.
	IdPTokenEndpoint string
	// IdPClientID and IdPClientSecret identify the client at the identity
	// provider; without a secret, client_id goes in the request body.
	IdPClientID     string
	IdPClientSecret string
	// IDToken returns the user's OpenID Connect ID token, obtained by an
	// earlier sign-in at the identity provider.
	IDToken func(ctx context.Context) (string, error)
}

var _ Grant = (*EnterpriseGrant)(nil)

// GrantType implements Grant.
func (g *EnterpriseGrant) GrantType() string { return GrantTypeJWTBearer }

// Grant implements Grant.
func (g *EnterpriseGrant) Grant(ctx context.Context, x *Exchange) (*Token, error) {
	if g.IDToken == nil || g.IdPTokenEndpoint == "" {
		return nil, errors.New("auth: EnterpriseGrant needs IdPTokenEndpoint and IDToken")
	}
	if x.Metadata.Issuer == "" {
		return nil, errors.New("auth: enterprise-managed authorization needs authorization server metadata")
	}
	idToken, err := g.IDToken(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: obtaining the ID token: %w", err)
	}
	jag, err := g.exchange(ctx, x, idToken)
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {GrantTypeJWTBearer}, "assertion": {jag}}
	if len(x.Scopes) > 0 {
		form.Set("scope", strings.Join(x.Scopes, " "))
	}
	return x.TokenRequest(ctx, form)
}

// exchange trades the ID token for an ID-JAG at the identity provider.
func (g *EnterpriseGrant) exchange(ctx context.Context, x *Exchange, idToken string) (string, error) {
	form := url.Values{
		"grant_type":           {GrantTypeTokenExchange},
		"requested_token_type": {TokenTypeIDJAG},
		"audience":             {x.Metadata.Issuer},
		"resource":             {x.Resource},
		"subject_token":        {idToken},
		"subject_token_type":   {TokenTypeIDToken},
	}
	if len(x.Scopes) > 0 {
		form.Set("scope", strings.Join(x.Scopes, " "))
	}
	header := http.Header{}
	if g.IdPClientSecret != "" {
		cred := url.QueryEscape(g.IdPClientID) + ":" + url.QueryEscape(g.IdPClientSecret)
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	} else if g.IdPClientID != "" {
		form.Set("client_id", g.IdPClientID)
	}
	status, _, body, err := postForm(ctx, x.hc, g.IdPTokenEndpoint, form, header)
	if err != nil {
		return "", err
	}
	if status != http.StatusOK {
		return "", oauthErrorFrom("identity provider token", status, body)
	}
	var tr tokenResponse
	if err := strictjson.Unmarshal(body, &tr); err != nil {
		return "", fmt.Errorf("auth: identity provider token endpoint: decoding the response: %w", err)
	}
	if tr.IssuedTokenType != TokenTypeIDJAG || tr.AccessToken == "" {
		return "", fmt.Errorf("auth: identity provider issued %q, not an ID-JAG", truncate(tr.IssuedTokenType, 80))
	}
	return tr.AccessToken, nil
}
