package auth

import (
	"bytes"
	"context"
	"crypto"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrTransportClosed is returned by a Transport's RoundTrip after Close.
var ErrTransportClosed = errors.New("auth: transport closed")

// ErrNoClientIdentity reports that the client has no way to identify
// itself to an authorization server: no pre-registered credentials for it,
// no Client ID Metadata Document it accepts, and no registration endpoint.
var ErrNoClientIdentity = errors.New("auth: no client identity for the authorization server")

// maxAuthorizations bounds the authorizations one request may cause: the
// first one and up to two step-ups for more scopes.
const maxAuthorizations = 3

// PreRegisteredClient holds client credentials obtained out of band from
// one authorization server.
type PreRegisteredClient struct {
	ClientID     string
	ClientSecret string
	// PrivateKey, if set, authenticates the client with private_key_jwt
	// (RFC 7523): assertions signed with SigningAlgorithm ("" for the
	// key's natural algorithm, such as ES256 for P-256) and KeyID.
	PrivateKey       crypto.Signer
	SigningAlgorithm string
	KeyID            string
	// AuthMethod forces a token endpoint authentication method
	// ("client_secret_basic", "client_secret_post", "private_key_jwt",
	// "none"); empty chooses from the server's metadata.
	AuthMethod string
	// Issuer is the authorization server the credentials belong to. When
	// set, they are used with that server only, and the Transport reports
	// an error if the MCP server names another one.
	Issuer string
}

// TransportOptions configure a Transport. Grant is required.
type TransportOptions struct {
	// Base sends the requests to the MCP server (default
	// http.DefaultTransport).
	Base http.RoundTripper
	// HTTPClient sends the requests for metadata and to authorization
	// servers (default: a client with a 30 s timeout). Redirects are
	// never followed.
	HTTPClient *http.Client
	// Grant obtains tokens.
	Grant Grant
	// Client holds pre-registered credentials, which take precedence.
	Client *PreRegisteredClient
	// ClientMetadataURL is the https URL of the client's Client ID
	// Metadata Document, used as client id by authorization servers that
	// advertise client_id_metadata_document_supported.
	ClientMetadataURL string
	// ClientMetadata is what Dynamic Client Registration sends, the last
	// resort; empty fields get defaults (redirect URI from the grant,
	// grant types, application_type from the redirect URIs).
	ClientMetadata *ClientMetadata
	// Scopes are requested in addition to those the server asks for.
	Scopes []string
	// OfflineAccess asks for the offline_access scope (refresh tokens)
	// when the authorization server lists it in scopes_supported.
	OfflineAccess bool
	// DPoP signs DPoP proofs. When nil, the Transport creates a prover
	// with a fresh P-256 key the first time both the authorization server
	// and the MCP server support DPoP, unless DisableDPoP is set.
	DPoP        *DPoPProver
	DisableDPoP bool
	// Store keeps tokens across runs (keyed by the server URL).
	Store TokenStore
	// RefreshBefore is how long before expiry a token is refreshed
	// (default one minute).
	RefreshBefore time.Duration
	// AuthorizationTimeout bounds one authorization, including the time a
	// user takes in the browser (default 10 minutes). A request that
	// triggered an authorization may give up earlier; the authorization
	// goes on for the requests that follow.
	AuthorizationTimeout time.Duration
	// Logger receives debug records of discovery and authorization,
	// never with secrets (default: none).
	Logger *slog.Logger
}

// Transport is an http.RoundTripper that authorizes requests to one MCP
// server: give it to the client transports as the Transport of their
// HTTPClient. On a 401 it discovers the authorization server (Protected
// Resource Metadata, then authorization server metadata), obtains a token
// with the Grant and retries the request once; on a 403 insufficient_scope
// it asks for the union of the scopes so far and the challenged ones, at
// most three authorizations per request. It refreshes tokens before they
// expire and when the server says they are invalid. Concurrent requests
// share one authorization in progress. Requests to other origins pass
// through without a token.
type Transport struct {
	opts      TransportOptions
	base      http.RoundTripper
	hc        *http.Client
	server    *url.URL
	serverURL string
	log       *slog.Logger
	now       func() time.Time

	mu        sync.Mutex
	loaded    bool
	closed    bool
	tok       *Token
	gen       uint64 // counts token changes
	md        *AuthorizationServerMetadata
	resource  string
	legacy    bool
	clients   map[string]*clientInfo // by issuer
	requested []string               // scopes asked for so far
	dpop      *DPoPProver
	flight    *flight

	closing context.Context // done on Close
	close   context.CancelFunc
	running sync.WaitGroup // authorizations in progress
}

// flight is one authorization in progress, which other requests wait for.
type flight struct {
	done chan struct{}
	err  error
}

// clientInfo is the client's identity at one authorization server.
type clientInfo struct {
	id, secret, method string
	key                crypto.Signer
	alg, keyID         string
}

// NewTransport returns a Transport for the MCP server at serverURL, which
// must be https, or http on a loopback host.
func NewTransport(serverURL string, opts *TransportOptions) (*Transport, error) {
	if opts == nil || opts.Grant == nil {
		return nil, errors.New("auth: TransportOptions.Grant is required")
	}
	u, err := checkEndpoint(serverURL)
	if err != nil {
		return nil, err
	}
	if opts.ClientMetadataURL != "" {
		if err := checkClientMetadataURL(opts.ClientMetadataURL); err != nil {
			return nil, err
		}
	}
	t := &Transport{
		opts: *opts, base: opts.Base, hc: authClient(opts.HTTPClient), server: u, serverURL: serverURL,
		log: opts.Logger, now: time.Now, clients: map[string]*clientInfo{}, dpop: opts.DPoP,
	}
	if t.base == nil {
		t.base = http.DefaultTransport
	}
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	if t.opts.RefreshBefore == 0 {
		t.opts.RefreshBefore = time.Minute
	}
	if t.opts.AuthorizationTimeout <= 0 {
		t.opts.AuthorizationTimeout = 10 * time.Minute
	}
	t.closing, t.close = context.WithCancel(context.Background())
	return t, nil
}

// Token returns the current token, or nil before the first authorization.
func (t *Transport) Token() *Token {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok == nil {
		return nil
	}
	c := *t.tok
	return &c
}

// Close stops any authorization in progress and waits for it to end,
// makes later requests fail with ErrTransportClosed and closes idle
// connections. It does not close Base beyond that.
func (t *Transport) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.close()
	t.running.Wait()
	t.CloseIdleConnections()
	return nil
}

// CloseIdleConnections closes the idle connections of Base and of the
// client for authorization servers.
func (t *Transport) CloseIdleConnections() {
	type idler interface{ CloseIdleConnections() }
	if i, ok := t.base.(idler); ok {
		i.CloseIdleConnections()
	}
	t.hc.CloseIdleConnections()
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || origin(req.URL) != origin(t.server) {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	req, err := replayable(req)
	if err != nil {
		return nil, err
	}
	tok, gen, err := t.current(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := t.send(req, tok)
	if err != nil {
		return nil, err
	}
	authorizations, nonceRetried := 0, false
	for {
		var kind authKind
		chal := challengesOf(resp.Header)
		switch {
		case resp.StatusCode == http.StatusUnauthorized && !nonceRetried && tok != nil && tok.TokenType == "DPoP" && dpopNonceChallenge(chal):
			nonceRetried = true // the prover saw the new nonce in send
			drain(resp)
			if resp, err = t.send(req, tok); err != nil {
				return nil, err
			}
			continue
		case resp.StatusCode == http.StatusUnauthorized && authorizations == 0:
			kind = authUnauthorized
		case resp.StatusCode == http.StatusForbidden && authorizations < maxAuthorizations && insufficientScope(chal):
			if !t.needsMoreScopes(chal) {
				return resp, nil
			}
			kind = authStepUp
		default:
			return resp, nil
		}
		if err := t.authorize(ctx, gen, chal, kind); err != nil {
			drain(resp)
			return nil, err
		}
		authorizations++
		drain(resp)
		t.mu.Lock()
		tok, gen = t.tok, t.gen
		t.mu.Unlock()
		if resp, err = t.send(req, tok); err != nil {
			return nil, err
		}
	}
}

// replayable returns req with a body that can be sent again (GetBody).
func replayable(req *http.Request) (*http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, nil
	}
	if req.GetBody != nil {
		// Every attempt sends a copy from GetBody; this one is done with.
		req.Body.Close()
		return req, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("auth: reading the request body: %w", err)
	}
	r := req.Clone(req.Context())
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.Body, _ = r.GetBody()
	r.ContentLength = int64(len(body))
	return r, nil
}

// send sends one copy of req with tok (if any).
func (t *Transport) send(req *http.Request, tok *Token) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("auth: replaying the request body: %w", err)
		}
		r.Body = body
	}
	r.Header.Del("Authorization")
	r.Header.Del("DPoP")
	if tok != nil {
		if tok.TokenType == "DPoP" {
			t.mu.Lock()
			p := t.dpop
			t.mu.Unlock()
			if p == nil {
				return nil, errors.New("auth: DPoP token without a DPoP key")
			}
			proof, err := p.Proof(r.Method, r.URL.String(), tok.AccessToken)
			if err != nil {
				return nil, err
			}
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			r.Header.Set("DPoP", proof)
		} else {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	p := t.dpop
	t.mu.Unlock()
	if p != nil {
		p.observeNonce(r.URL, resp.Header)
	}
	return resp, nil
}

func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// current returns the token to send, refreshing it first when it is about
// to expire, and the generation it belongs to.
func (t *Transport) current(ctx context.Context) (*Token, uint64, error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, 0, ErrTransportClosed
	}
	if !t.loaded {
		t.loaded = true
		if t.opts.Store != nil {
			t.mu.Unlock()
			tok, err := t.opts.Store.Load(ctx, t.serverURL)
			t.mu.Lock()
			if err != nil {
				t.log.Debug("auth: loading the stored token failed", "err", err)
			} else if tok != nil && t.tok == nil && (tok.TokenType == "Bearer" || tok.TokenType == "DPoP" && t.dpop != nil) {
				t.tok, t.requested = tok, tok.Scopes
				t.gen++
			}
		}
	}
	tok, gen := t.tok, t.gen
	t.mu.Unlock()
	if tok == nil || tok.Valid(t.now(), t.opts.RefreshBefore) {
		return tok, gen, nil
	}
	if tok.RefreshToken != "" {
		if err := t.authorize(ctx, gen, nil, authRefresh); err == nil {
			t.mu.Lock()
			defer t.mu.Unlock()
			return t.tok, t.gen, nil
		}
	}
	if tok.Valid(t.now(), 0) {
		return tok, gen, nil
	}
	return nil, gen, nil // expired: the server's 401 starts an authorization
}

// needsMoreScopes reports whether a 403 challenge asks for scopes the
// client has not requested yet; if not, a new authorization cannot help.
func (t *Transport) needsMoreScopes(chal []Challenge) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range challengeScopes(chal) {
		if !slices.Contains(t.requested, s) {
			return true
		}
	}
	return false
}

// challengeScopes returns the scopes of the first challenge that has any.
func challengeScopes(chal []Challenge) []string {
	for _, c := range chal {
		if s := c.Scopes(); len(s) > 0 {
			return s
		}
	}
	return nil
}

func insufficientScope(chal []Challenge) bool {
	for _, c := range chal {
		if c.Param("error") == "insufficient_scope" {
			return true
		}
	}
	return false
}

func dpopNonceChallenge(chal []Challenge) bool {
	for _, c := range chal {
		if strings.EqualFold(c.Scheme, "DPoP") && c.Param("error") == "use_dpop_nonce" {
			return true
		}
	}
	return false
}

// resourceMetadataURL returns the resource_metadata of the challenges.
func resourceMetadataURL(chal []Challenge) string {
	for _, c := range chal {
		if v := c.Param("resource_metadata"); v != "" {
			return v
		}
	}
	return ""
}

// union returns a followed by the elements of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
