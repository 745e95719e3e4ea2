package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gomcp/sdk/strictjson"
)

// ErrStateMismatch reports an authorization response whose state is not
// the one the client sent (a possible cross-site request forgery).
var ErrStateMismatch = errors.New("auth: authorization response has a wrong or missing state")

// ErrMissingIssuer reports an authorization response without iss from an
// authorization server that advertises it (RFC 9207 section 2.4).
var ErrMissingIssuer = errors.New("auth: authorization response has no iss, which the server advertises")

// A Grant obtains a token from an authorization server: one of the grants
// of this package (AuthorizationCodeGrant, ClientCredentialsGrant,
// JWTBearerGrant, EnterpriseGrant) or a custom one built on
// Exchange.TokenRequest.
type Grant interface {
	// GrantType is the grant_type the grant uses at the token endpoint;
	// it goes into Dynamic Client Registration requests.
	GrantType() string
	// Grant obtains a token for x.Resource with x.Scopes.
	Grant(ctx context.Context, x *Exchange) (*Token, error)
}

// Exchange is what a Grant works with: the authorization server and the
// client identity the Transport chose, and the resource and scopes to ask
// for.
type Exchange struct {
	// Metadata describes the authorization server. Its Issuer is empty for
	// an MCP server of the 2025-03-26 revision without metadata.
	Metadata *AuthorizationServerMetadata
	// Resource is the RFC 8707 resource indicator: the resource of the
	// server's Protected Resource Metadata, byte for byte.
	Resource string
	// Scopes are the scopes to request; empty means omit scope.
	Scopes []string
	// ClientID is the client's identifier at this authorization server.
	ClientID string

	hc     *http.Client
	legacy bool // found by the 2025-03-26 fallbacks
	client *clientInfo
	dpop   *DPoPProver
	now    func() time.Time
}

// HTTPClient returns the client for requests to authorization servers; it
// does not follow redirects.
func (x *Exchange) HTTPClient() *http.Client { return x.hc }

// TokenRequest sends a token request with form (which holds grant_type
// and the grant's parameters) to the token endpoint, adding the resource
// parameter, client authentication and, when tokens are DPoP-bound, a DPoP
// proof (retried once with the server's nonce when it asks for one).
// Errors from the server are *OAuthError.
func (x *Exchange) TokenRequest(ctx context.Context, form url.Values) (*Token, error) {
	md := x.Metadata
	if x.Resource != "" && !form.Has("resource") {
		form.Set("resource", x.Resource)
	}
	header := http.Header{}
	if err := x.authenticate(form, header); err != nil {
		return nil, err
	}
	endpoint, _ := url.Parse(md.TokenEndpoint)
	for attempt := 0; ; attempt++ {
		if x.dpop != nil {
			proof, err := x.dpop.Proof(http.MethodPost, md.TokenEndpoint, "")
			if err != nil {
				return nil, err
			}
			header.Set("DPoP", proof)
		}
		status, rh, body, err := postForm(ctx, x.hc, md.TokenEndpoint, form, header)
		if err != nil {
			return nil, err
		}
		newNonce := x.dpop != nil && x.dpop.observeNonce(endpoint, rh)
		if status == http.StatusOK {
			return x.parseToken(body, form)
		}
		oerr := oauthErrorFrom("token", status, body)
		var oe *OAuthError
		if newNonce && attempt == 0 && errors.As(oerr, &oe) && oe.Code == "use_dpop_nonce" {
			continue
		}
		return nil, oerr
	}
}

// authenticate adds client authentication to a token request.
func (x *Exchange) authenticate(form url.Values, header http.Header) error {
	c := x.client
	if c == nil {
		return nil
	}
	switch c.method {
	case "client_secret_basic":
		cred := url.QueryEscape(c.id) + ":" + url.QueryEscape(c.secret)
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case "client_secret_post":
		form.Set("client_id", c.id)
		form.Set("client_secret", c.secret)
	case "private_key_jwt":
		aud := x.Metadata.Issuer
		if aud == "" {
			aud = x.Metadata.TokenEndpoint
		}
		a, err := clientAssertion(c.key, c.alg, c.keyID, c.id, aud, x.now())
		if err != nil {
			return err
		}
		form.Set("client_id", c.id)
		form.Set("client_assertion_type", ClientAssertionTypeJWTBearer)
		form.Set("client_assertion", a)
	default: // "none"
		form.Set("client_id", c.id)
	}
	return nil
}

// parseToken decodes a successful token response.
func (x *Exchange) parseToken(body []byte, form url.Values) (*Token, error) {
	var tr tokenResponse
	if err := strictjson.Unmarshal(body, &tr); err != nil {
		return nil, fmt.Errorf("auth: token endpoint: decoding the response: %w", err)
	}
	if tr.AccessToken == "" {
		return nil, errors.New("auth: token endpoint: response has no access_token")
	}
	typ := tr.TokenType
	switch {
	case strings.EqualFold(typ, "bearer"):
		typ = "Bearer"
	case strings.EqualFold(typ, "dpop"):
		if x.dpop == nil {
			return nil, errors.New("auth: token endpoint issued a DPoP token to a request without a DPoP proof")
		}
		typ = "DPoP"
	default:
		return nil, fmt.Errorf("auth: token endpoint: unsupported token_type %q", truncate(tr.TokenType, 40))
	}
	tok := &Token{
		AccessToken:  tr.AccessToken,
		TokenType:    typ,
		RefreshToken: tr.RefreshToken,
		Scopes:       strings.Fields(tr.Scope),
		Issuer:       x.Metadata.Issuer,
		ClientID:     x.ClientID,
		Resource:     x.Resource,
	}
	if tr.Scope == "" {
		tok.Scopes = strings.Fields(form.Get("scope"))
		if len(tok.Scopes) == 0 {
			tok.Scopes = slices.Clone(x.Scopes)
		}
	}
	if tr.ExpiresIn > 0 {
		tok.Expiry = x.now().Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	return tok, nil
}

// AuthorizeFunc sends the user to authorizationURL (a browser, a printed
// link) and returns the code, state and iss of the authorization response
// that arrives at the redirect URL. An error response is returned as an
// *OAuthError, with the state and iss of that response, so that the grant
// checks them before it reports the error.
type AuthorizeFunc func(ctx context.Context, authorizationURL string) (code, state, iss string, err error)

// AuthorizationCodeGrant is the authorization code grant with PKCE (S256),
// for clients acting for a user: the user approves access in a browser and
// the authorization server redirects to RedirectURL.
type AuthorizationCodeGrant struct {
	// RedirectURL is where the authorization server sends the user back,
	// for example the URL of a LoopbackRedirect.
	RedirectURL string
	// Authorize takes the user through authorization.
	Authorize AuthorizeFunc
}

var _ Grant = (*AuthorizationCodeGrant)(nil)

// GrantType implements Grant.
func (g *AuthorizationCodeGrant) GrantType() string { return "authorization_code" }

// Grant implements Grant. It checks the state and, by the rules of
// RFC 9207 and MCP, the iss of the response before it sends the code.
func (g *AuthorizationCodeGrant) Grant(ctx context.Context, x *Exchange) (*Token, error) {
	md := x.Metadata
	if g.Authorize == nil || g.RedirectURL == "" {
		return nil, errors.New("auth: AuthorizationCodeGrant needs Authorize and RedirectURL")
	}
	if md.AuthorizationEndpoint == "" {
		return nil, fmt.Errorf("auth: authorization server %s has no authorization endpoint", md.Issuer)
	}
	// Servers found through MCP's discovery must advertise S256; the
	// 2025-03-26 fallbacks did not require the field.
	if !slices.Contains(md.CodeChallengeMethodsSupported, "S256") && (!x.legacy || len(md.CodeChallengeMethodsSupported) > 0) {
		return nil, fmt.Errorf("auth: authorization server %s does not advertise PKCE S256", md.Issuer)
	}
	authURL, err := checkEndpoint(md.AuthorizationEndpoint)
	if err != nil {
		return nil, err
	}
	verifier, state := newPKCEVerifier(), randomString(24)
	q := authURL.Query()
	q.Set("response_type", "code")
	q.Set("client_id", x.ClientID)
	q.Set("redirect_uri", g.RedirectURL)
	q.Set("state", state)
	q.Set("code_challenge", pkceChallengeS256(verifier))
	q.Set("code_challenge_method", "S256")
	if x.Resource != "" {
		q.Set("resource", x.Resource)
	}
	if len(x.Scopes) > 0 {
		q.Set("scope", strings.Join(x.Scopes, " "))
	}
	authURL.RawQuery = q.Encode()
	code, gotState, iss, err := g.Authorize(ctx, authURL.String())
	var oe *OAuthError
	if err != nil && !errors.As(err, &oe) {
		return nil, err
	}
	if gotState != state {
		return nil, ErrStateMismatch
	}
	if err := checkIss(md, iss); err != nil {
		return nil, err
	}
	if oe != nil {
		oe.Endpoint = "authorization"
		return nil, oe
	}
	if code == "" {
		return nil, errors.New("auth: authorization response has no code")
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {g.RedirectURL},
		"code_verifier": {verifier},
	}
	return x.TokenRequest(ctx, form)
}

// checkIss applies RFC 9207 as MCP requires: a present iss must equal the
// issuer exactly; an absent one is an error if the server advertises iss.
func checkIss(md *AuthorizationServerMetadata, iss string) error {
	if iss != "" {
		if iss != md.Issuer {
			return fmt.Errorf("%w: authorization response from %q, expected %q", ErrIssuerMismatch, truncate(iss, 100), md.Issuer)
		}
		return nil
	}
	if md.AuthorizationResponseIssParameterSupported {
		return ErrMissingIssuer
	}
	return nil
}

// ClientCredentialsGrant is the client_credentials grant (OAuth client
// credentials extension of MCP): a client acting on its own behalf, with
// pre-registered credentials (TransportOptions.Client) authenticated by
// client_secret_basic, client_secret_post or private_key_jwt.
type ClientCredentialsGrant struct{}

var _ Grant = ClientCredentialsGrant{}

// GrantType implements Grant.
func (ClientCredentialsGrant) GrantType() string { return "client_credentials" }

// Grant implements Grant.
func (ClientCredentialsGrant) Grant(ctx context.Context, x *Exchange) (*Token, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(x.Scopes) > 0 {
		form.Set("scope", strings.Join(x.Scopes, " "))
	}
	return x.TokenRequest(ctx, form)
}

// JWTBearerGrant is the JWT bearer grant of RFC 7523 section 2.1: the
// client presents a JWT issued by a party the authorization server trusts,
// such as a workload identity token from the platform the program runs on.
// A refusal (invalid_grant, invalid_scope, unauthorized_client) is returned
// as it is, without a retry or another grant.
type JWTBearerGrant struct {
	// Assertion returns the JWT to present; it is called for each token
	// request, so it can return a freshly minted one.
	Assertion func(ctx context.Context) (string, error)
}

var _ Grant = (*JWTBearerGrant)(nil)

// GrantType implements Grant.
func (g *JWTBearerGrant) GrantType() string { return GrantTypeJWTBearer }

// Grant implements Grant.
func (g *JWTBearerGrant) Grant(ctx context.Context, x *Exchange) (*Token, error) {
	if g.Assertion == nil {
		return nil, errors.New("auth: JWTBearerGrant needs Assertion")
	}
	a, err := g.Assertion(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: obtaining the assertion: %w", err)
	}
	form := url.Values{"grant_type": {GrantTypeJWTBearer}, "assertion": {a}}
	if len(x.Scopes) > 0 {
		form.Set("scope", strings.Join(x.Scopes, " "))
	}
	return x.TokenRequest(ctx, form)
}
