package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/strictjson"
)

// Defaults of IntrospectionVerifierOptions.
const (
	// DefaultIntrospectionCacheTTL is the longest an introspection answer
	// is reused, which bounds how long a revoked token is still accepted.
	DefaultIntrospectionCacheTTL = time.Minute
	// DefaultIntrospectionRefusalTTL is how long a refused token is
	// remembered.
	DefaultIntrospectionRefusalTTL = 10 * time.Second
	// maxIntrospectionBytes bounds an introspection response.
	maxIntrospectionBytes = 64 << 10
)

// IntrospectionVerifierOptions configure an IntrospectionVerifier.
// Audience is required, and Endpoint or Issuer.
type IntrospectionVerifierOptions struct {
	// Endpoint is the authorization server's introspection endpoint. If
	// empty, it is read from the metadata of Issuer.
	Endpoint string
	// Issuer, if set, must equal the "iss" of every active token.
	Issuer string
	// Audience is this server's canonical URL, which the token's "aud"
	// must list.
	Audience string
	// AcceptMissingAudience accepts active tokens whose introspection has
	// no "aud", for authorization servers that check the audience
	// themselves. Off by default: the MCP specification requires servers
	// to check that tokens were issued for them.
	AcceptMissingAudience bool
	// ClientID and ClientSecret authenticate this server to the
	// introspection endpoint (HTTP Basic, RFC 7662 section 2.1).
	ClientID, ClientSecret string
	// HTTPClient makes the requests (default: a client with Timeout).
	HTTPClient *http.Client
	// Timeout bounds one introspection (default DefaultFetchTimeout).
	Timeout time.Duration
	// CacheSize is how many answers for active tokens are remembered
	// (default DefaultTokenCacheSize; negative disables the cache).
	CacheSize int
	// CacheTTL is the longest an answer is reused; answers are never
	// reused past the token's expiry (default
	// DefaultIntrospectionCacheTTL).
	CacheTTL time.Duration
	// RefusalTTL is how long a refused token is remembered, so that a
	// client repeating it does not cost an introspection each time
	// (default DefaultIntrospectionRefusalTTL; negative: not remembered).
	RefusalTTL time.Duration

	now func() time.Time // for tests
}

// An IntrospectionVerifier is a TokenVerifier that asks the authorization
// server about each token (OAuth 2.0 Token Introspection, RFC 7662), for
// opaque tokens or to learn about revocations. Answers for active tokens
// are cached, bounded in number and by the token's expiry and CacheTTL.
type IntrospectionVerifier struct {
	o        IntrospectionVerifierOptions
	audience string
	hc       *http.Client
	cache    *tokenCache
	now      func() time.Time

	mu       sync.Mutex
	endpoint string
	flights  map[[32]byte]*introspectionFlight // introspections in progress, by token key
}

var _ TokenVerifier = (*IntrospectionVerifier)(nil)

// An introspectionFlight is one introspection of a token, whose answer
// every concurrent request presenting the token waits for.
type introspectionFlight struct {
	done chan struct{} // closed once ti and err are set
	ti   *TokenInfo
	err  error
}

// NewIntrospectionVerifier returns a verifier using opts. It does no
// network I/O.
func NewIntrospectionVerifier(opts *IntrospectionVerifierOptions) (*IntrospectionVerifier, error) {
	if opts == nil || opts.Audience == "" || (opts.Endpoint == "" && opts.Issuer == "") {
		return nil, errors.New("auth: IntrospectionVerifierOptions need Audience, and Endpoint or Issuer")
	}
	aud, err := CanonicalResourceURL(opts.Audience)
	if err != nil {
		return nil, err
	}
	v := &IntrospectionVerifier{o: *opts, audience: aud, endpoint: opts.Endpoint, now: opts.now}
	if v.o.Timeout <= 0 {
		v.o.Timeout = DefaultFetchTimeout
	}
	if v.o.CacheTTL <= 0 {
		v.o.CacheTTL = DefaultIntrospectionCacheTTL
	}
	if v.o.RefusalTTL == 0 {
		v.o.RefusalTTL = DefaultIntrospectionRefusalTTL
	}
	v.hc = opts.HTTPClient
	if v.hc == nil {
		v.hc = &http.Client{Timeout: v.o.Timeout}
	}
	if v.now == nil {
		v.now = time.Now
	}
	v.cache = newTokenCache(opts.CacheSize, v.o.CacheTTL)
	return v, nil
}

// introspection is an RFC 7662 response.
type introspection struct {
	Active    bool     `json:"active"`
	Scope     string   `json:"scope"`
	ClientID  string   `json:"client_id"`
	Username  string   `json:"username"`
	TokenType string   `json:"token_type"`
	Exp       float64  `json:"exp"`
	Iat       float64  `json:"iat"`
	Nbf       float64  `json:"nbf"`
	Sub       string   `json:"sub"`
	Aud       audience `json:"aud"`
	Iss       string   `json:"iss"`
	Jti       string   `json:"jti"`
	Cnf       struct {
		Jkt string `json:"jkt"`
	} `json:"cnf"`
}

// VerifyToken introspects token, or reuses a recent answer.
func (v *IntrospectionVerifier) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	if len(token) > maxTokenBytes {
		return nil, invalid("token too long")
	}
	now := v.now()
	key := tokenKey(token)
	if e, ok := v.cache.get(key, now); ok {
		return e.ti, e.err
	}
	// Concurrent requests with one new token share one introspection.
	v.mu.Lock()
	f, inFlight := v.flights[key]
	if !inFlight {
		f = &introspectionFlight{done: make(chan struct{})}
		if v.flights == nil {
			v.flights = make(map[[32]byte]*introspectionFlight)
		}
		v.flights[key] = f
	}
	v.mu.Unlock()
	if !inFlight {
		v.lead(ctx, f, token, key, now)
	}
	select {
	case <-f.done:
		return f.ti, f.err
	case <-ctx.Done():
		return nil, unavailable("introspection not finished", ctx.Err())
	}
}

// lead runs the introspection of flight f, which outlives a caller that
// gives up (others may wait for it), bounded by Timeout, and releases its
// waiters however it ends.
func (v *IntrospectionVerifier) lead(ctx context.Context, f *introspectionFlight, token string, key [32]byte, now time.Time) {
	defer func() {
		v.mu.Lock()
		delete(v.flights, key)
		v.mu.Unlock()
		close(f.done)
	}()
	// What the waiters get should introspect panic.
	f.err = unavailable("introspection failed", errors.New("introspection did not finish"))
	f.ti, f.err = v.introspect(context.WithoutCancel(ctx), token, key, now)
}

// introspect asks the authorization server about token and caches the
// answer.
func (v *IntrospectionVerifier) introspect(ctx context.Context, token string, key [32]byte, now time.Time) (*TokenInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, v.o.Timeout)
	defer cancel()
	endpoint, err := v.endpointURL(ctx)
	if err != nil {
		return nil, unavailable("introspection endpoint unknown", err)
	}
	body, err := v.post(ctx, endpoint, token)
	if err != nil {
		return nil, unavailable("introspection failed", err)
	}
	var in introspection
	if err := strictjson.Unmarshal(body, &in); err != nil {
		return nil, unavailable("introspection answer is not valid", err)
	}
	ti, exp, err := v.check(&in, now)
	if err != nil {
		v.cache.putRefusal(key, err, v.o.RefusalTTL, now)
		return nil, err
	}
	ti.RawClaims = body
	v.cache.put(key, ti, exp, now)
	return ti, nil
}

// check validates an introspection answer and describes the token.
func (v *IntrospectionVerifier) check(in *introspection, now time.Time) (*TokenInfo, time.Time, error) {
	if !in.Active {
		return nil, time.Time{}, invalid("token is not active")
	}
	if v.o.Issuer != "" && in.Iss != v.o.Issuer {
		return nil, time.Time{}, invalid("token issuer is not accepted")
	}
	if len(in.Aud) == 0 {
		if !v.o.AcceptMissingAudience {
			return nil, time.Time{}, invalid("token audience is unknown")
		}
	} else {
		ok := false
		for _, a := range in.Aud {
			ok = ok || sameResource(a, v.audience)
		}
		if !ok {
			return nil, time.Time{}, invalid("token audience is not this server")
		}
	}
	var exp time.Time
	if in.Exp > 0 {
		exp = unixTime(in.Exp)
		if !now.Before(exp) {
			return nil, time.Time{}, invalid("token expired")
		}
	}
	if in.Nbf > 0 && now.Before(unixTime(in.Nbf)) {
		return nil, time.Time{}, invalid("token not yet valid")
	}
	ti := &TokenInfo{Subject: in.Sub, ClientID: in.ClientID, Issuer: in.Iss, Scopes: parseScope(in.Scope),
		Audience: in.Aud, Expiration: exp, ID: in.Jti, JKT: in.Cnf.Jkt}
	if ti.Subject == "" {
		ti.Subject = in.Username
	}
	if in.Iat > 0 {
		ti.IssuedAt = unixTime(in.Iat)
	}
	return ti.withOwner(), exp, nil
}

func (v *IntrospectionVerifier) endpointURL(ctx context.Context) (string, error) {
	v.mu.Lock()
	e := v.endpoint
	v.mu.Unlock()
	if e != "" {
		return e, nil
	}
	md, err := fetchIssuerMetadata(ctx, v.hc, v.o.Issuer)
	if err != nil {
		return "", err
	}
	if md.IntrospectionEndpoint == "" {
		return "", fmt.Errorf("metadata of %s has no introspection_endpoint", v.o.Issuer)
	}
	if err := checkFetchURL(md.IntrospectionEndpoint, v.o.Issuer); err != nil {
		return "", err
	}
	v.mu.Lock()
	v.endpoint = md.IntrospectionEndpoint
	v.mu.Unlock()
	return md.IntrospectionEndpoint, nil
}

func (v *IntrospectionVerifier) post(ctx context.Context, endpoint, token string) ([]byte, error) {
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if v.o.ClientID != "" {
		req.SetBasicAuth(url.QueryEscape(v.o.ClientID), url.QueryEscape(v.o.ClientSecret))
	}
	resp, err := v.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return nil, fmt.Errorf("introspection endpoint answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxIntrospectionBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxIntrospectionBytes {
		return nil, errors.New("introspection answer too large")
	}
	return body, nil
}
