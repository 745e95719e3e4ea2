package auth

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// DefaultClockSkew is the clock difference tolerated when checking the
// times in tokens and proofs.
const DefaultClockSkew = 30 * time.Second

// JWTVerifierOptions configure a JWTVerifier. Issuer and Audience are
// required.
type JWTVerifierOptions struct {
	// Issuer is the authorization server's issuer identifier. Tokens must
	// carry it in "iss", byte for byte; its metadata (RFC 8414, or OpenID
	// Connect discovery) gives the JWKS URL unless JWKSURL is set. The
	// metadata is looked for, in this order, until one answers other than
	// 4xx, at:
	//   - for an issuer without a path (https://as.example.com):
	//     /.well-known/oauth-authorization-server, then
	//     /.well-known/openid-configuration;
	//   - for an issuer with a path (https://as.example.com/tenant):
	//     /.well-known/oauth-authorization-server/tenant, then
	//     /.well-known/openid-configuration/tenant, then
	//     /tenant/.well-known/openid-configuration.
	//
	// The document found must name Issuer as its issuer, byte for byte.
	// Until it is found, requests get 503 "token verification is
	// unavailable"; RequireBearerToken logs why (see its Logger option).
	Issuer string
	// Audience is this server's canonical URL (its resource identifier,
	// RFC 8707), which tokens must list in "aud".
	Audience string
	// JWKSURL, if set, is where the issuer's keys are, skipping metadata
	// discovery.
	JWKSURL string
	// Algorithms are the accepted signature algorithms, a subset of RS256,
	// ES256 and EdDSA (default: all three). The token's header never adds
	// to them.
	Algorithms []string
	// ClockSkew is the clock difference tolerated on exp, nbf and iat
	// (default DefaultClockSkew; negative means none).
	ClockSkew time.Duration
	// HTTPClient fetches metadata and keys (default: a client with
	// FetchTimeout).
	HTTPClient *http.Client
	// FetchTimeout bounds each wait for metadata or keys (default
	// DefaultFetchTimeout).
	FetchTimeout time.Duration
	// RefreshInterval is the shortest time between JWKS fetches caused by
	// tokens naming an unknown key (default DefaultRefreshInterval).
	RefreshInterval time.Duration
	// MaxKeys bounds how many keys of the JWKS are kept (default
	// DefaultMaxKeys); MaxJWKSBytes bounds the JWKS document (default
	// DefaultMaxJWKSBytes).
	MaxKeys      int
	MaxJWKSBytes int64
	// CacheSize is how many verified tokens are remembered until they
	// expire, so that a token seen again costs a hash and a map lookup
	// (default DefaultTokenCacheSize; negative disables the cache).
	CacheSize int
	// MaxTokenBytes bounds an accepted token (default 16 KiB).
	MaxTokenBytes int

	now func() time.Time // for tests
}

// A JWTVerifier is a TokenVerifier for access tokens that are JWTs (RFC
// 9068) signed by the issuer's keys. Keys come from the issuer's JWKS,
// fetched on first use and again (rate limited) when a token names an
// unknown key id. It checks the signature with an algorithm from its
// allow-list that fits the key, then iss, aud, exp, nbf and iat. It is
// safe for concurrent use.
type JWTVerifier struct {
	issuer   string
	audience string // canonical
	algs     []string
	skew     time.Duration
	maxToken int
	keys     *jwksCache
	cache    *tokenCache
	now      func() time.Time
}

var _ TokenVerifier = (*JWTVerifier)(nil)

// NewJWTVerifier returns a verifier for tokens of opts.Issuer meant for
// opts.Audience. It does no network I/O: metadata and keys are fetched
// when the first token arrives.
func NewJWTVerifier(opts *JWTVerifierOptions) (*JWTVerifier, error) {
	if opts == nil || opts.Issuer == "" || opts.Audience == "" {
		return nil, errors.New("auth: JWTVerifierOptions need Issuer and Audience")
	}
	if _, err := metadataURLs(opts.Issuer); err != nil {
		return nil, err
	}
	aud, err := CanonicalResourceURL(opts.Audience)
	if err != nil {
		return nil, err
	}
	algs := defaultAlgs
	if len(opts.Algorithms) > 0 {
		for _, a := range opts.Algorithms {
			if !algAllowed(defaultAlgs, a) {
				return nil, errors.New("auth: unsupported algorithm " + a + " (RS256, ES256 and EdDSA are supported)")
			}
		}
		algs = append([]string(nil), opts.Algorithms...)
	}
	v := &JWTVerifier{issuer: opts.Issuer, audience: aud, algs: algs, skew: opts.ClockSkew, maxToken: opts.MaxTokenBytes, now: opts.now}
	if v.skew == 0 {
		v.skew = DefaultClockSkew
	} else if v.skew < 0 {
		v.skew = 0
	}
	if v.maxToken <= 0 {
		v.maxToken = maxTokenBytes
	}
	if v.now == nil {
		v.now = time.Now
	}
	kc := &jwksCache{issuer: opts.Issuer, hc: opts.HTTPClient, timeout: opts.FetchTimeout, interval: opts.RefreshInterval,
		maxKeys: opts.MaxKeys, maxBytes: opts.MaxJWKSBytes, now: v.now}
	if kc.timeout <= 0 {
		kc.timeout = DefaultFetchTimeout
	}
	if kc.interval <= 0 {
		kc.interval = DefaultRefreshInterval
	}
	if kc.maxKeys <= 0 {
		kc.maxKeys = DefaultMaxKeys
	}
	if kc.maxBytes <= 0 {
		kc.maxBytes = DefaultMaxJWKSBytes
	}
	if kc.hc == nil {
		kc.hc = &http.Client{Timeout: kc.timeout}
	}
	if opts.JWKSURL != "" {
		if err := checkFetchURL(opts.JWKSURL, opts.Issuer); err != nil {
			return nil, err
		}
		kc.jwksURL = opts.JWKSURL
	}
	v.keys = kc
	v.cache = newTokenCache(opts.CacheSize, 0)
	return v, nil
}

// jwtClaims are the registered claims an access token is checked on.
type jwtClaims struct {
	Iss      string         `json:"iss"`
	Sub      string         `json:"sub"`
	Aud      audience       `json:"aud"`
	Exp      float64        `json:"exp"`
	Nbf      float64        `json:"nbf"`
	Iat      float64        `json:"iat"`
	Jti      string         `json:"jti"`
	ClientID string         `json:"client_id"`
	Azp      string         `json:"azp"`
	Scope    string         `json:"scope"`
	Scp      jsontext.Value `json:"scp"`
	Cnf      struct {
		Jkt string `json:"jkt"`
	} `json:"cnf"`

	aud1 [1]string // Aud's storage when it is one string
}

// audience is "aud": one string or an array of strings.
type audience []string

// UnmarshalJSON decodes a string or an array of strings.
func (a *audience) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := unmarshalUnbounded(b, &s); err != nil {
			return err
		}
		*a = audience{s}
		return nil
	}
	var ss []string
	if err := unmarshalUnbounded(b, &ss); err != nil {
		return err
	}
	*a = ss
	return nil
}

// VerifyToken verifies a JWT access token and describes it.
func (v *JWTVerifier) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	now := v.now()
	var key [32]byte
	if v.cache != nil {
		key = tokenKey(token)
		if e, ok := v.cache.get(key, now); ok {
			return e.ti, e.err
		}
	}
	jws, err := parseCompactJWS(token, v.maxToken)
	if err != nil {
		return nil, err
	}
	if !algAllowed(v.algs, jws.header.Alg) {
		return nil, invalid("token algorithm " + sanitizeToken(jws.header.Alg) + " is not accepted")
	}
	switch strings.ToLower(jws.header.Typ) {
	case "", "jwt", "at+jwt", "application/at+jwt":
	default:
		return nil, invalid("token type " + sanitizeToken(jws.header.Typ) + " is not an access token")
	}
	var c jwtClaims
	if err := decodeClaims(jws.payload, &c); err != nil { // bounded; see parseCompactJWS
		return nil, invalid("token claims are not valid JSON")
	}
	exp, err := v.checkClaims(&c, now)
	if err != nil {
		return nil, err
	}
	if err := v.keys.verify(ctx, jws); err != nil {
		return nil, err
	}
	ti := newTokenInfo(&c, exp, jws.payload)
	if v.cache != nil {
		v.cache.put(key, ti, exp, now)
	}
	return ti, nil
}

// checkClaims checks iss, aud and the times, returning the expiry.
func (v *JWTVerifier) checkClaims(c *jwtClaims, now time.Time) (time.Time, error) {
	if c.Iss != v.issuer {
		return time.Time{}, invalid("token issuer is not accepted")
	}
	okAud := false
	for _, a := range c.Aud {
		if sameResource(a, v.audience) {
			okAud = true
			break
		}
	}
	if !okAud {
		return time.Time{}, invalid("token audience is not this server")
	}
	if c.Exp <= 0 {
		return time.Time{}, invalid("token has no expiry")
	}
	exp := unixTime(c.Exp)
	if !now.Before(exp.Add(v.skew)) {
		return time.Time{}, invalid("token expired")
	}
	if c.Nbf > 0 && now.Add(v.skew).Before(unixTime(c.Nbf)) {
		return time.Time{}, invalid("token not yet valid")
	}
	if c.Iat > 0 && now.Add(v.skew).Before(unixTime(c.Iat)) {
		return time.Time{}, invalid("token issued in the future")
	}
	return exp, nil
}

// unixTime converts a NumericDate, clamping absurd values.
func unixTime(f float64) time.Time {
	if f > 1<<40 || math.IsNaN(f) {
		f = 1 << 40
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// tokenInfoStorage is a TokenInfo with room for a typical token's
// audience and scopes, so that building one takes one allocation.
type tokenInfoStorage struct {
	ti     TokenInfo
	aud    [1]string
	scopes [4]string
}

// newTokenInfo describes a token whose claims c were checked.
func newTokenInfo(c *jwtClaims, exp time.Time, payload []byte) *TokenInfo {
	st := &tokenInfoStorage{}
	ti := &st.ti
	*ti = TokenInfo{
		Subject:    c.Sub,
		ClientID:   c.ClientID,
		Issuer:     c.Iss,
		Audience:   c.Aud,
		Expiration: exp,
		ID:         c.Jti,
		JKT:        c.Cnf.Jkt,
		RawClaims:  payload,
	}
	if len(c.Aud) == 1 {
		st.aud[0] = c.Aud[0]
		ti.Audience = st.aud[:1:1]
	}
	if ti.ClientID == "" {
		ti.ClientID = c.Azp
	}
	if c.Iat > 0 {
		ti.IssuedAt = unixTime(c.Iat)
	}
	if c.Scope != "" {
		// Clipped, so that an append to a shared TokenInfo's scopes copies.
		ti.Scopes = slices.Clip(appendScopes(st.scopes[:0:len(st.scopes)], c.Scope))
	} else {
		ti.Scopes = tokenScopes("", c.Scp)
	}
	return ti.withOwner()
}

// appendScopes appends the scopes of s, split as parseScope splits them,
// to dst.
func appendScopes(dst []string, s string) []string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '\t' && c <= '\r' || c >= utf8.RuneSelf {
			return append(dst, parseScope(s)...) // other white space
		}
	}
	for s != "" {
		i := 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
		s = s[i:]
		j := strings.IndexByte(s, ' ')
		if j < 0 {
			j = len(s)
		}
		if j > 0 {
			dst = append(dst, s[:j])
		}
		s = s[j:]
	}
	return dst
}

// tokenScopes returns the scopes of "scope" (a space-separated string)
// or, without it, of "scp" (a string or an array of strings).
func tokenScopes(scope string, scp jsontext.Value) []string {
	if scope != "" {
		return parseScope(scope)
	}
	if len(scp) == 0 {
		return nil
	}
	if scp[0] == '"' {
		var s string
		if unmarshalUnbounded(scp, &s) == nil {
			return parseScope(s)
		}
		return nil
	}
	var ss []string
	if unmarshalUnbounded(scp, &ss) == nil {
		return ss
	}
	return nil
}
