// Package authtest provides an OAuth 2.0 authorization server for the
// tests of MCP servers protected with the auth package: it publishes its
// metadata (RFC 8414 and OpenID Connect discovery) and its signing key
// (JWKS), and mints JWT access tokens (RFC 9068) with the subject,
// audience, scopes, expiry and other claims a test chooses, without any
// login. An auth.JWTVerifier pointed at it accepts its tokens as it would
// a real issuer's.
//
// It is meant for tests only: anyone who can reach it can mint tokens.
package authtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/gomcp/sdk/auth"
)

// KeyID is the key id ("kid") of an Issuer's signing key and its tokens.
const KeyID = "authtest-es256"

// An Issuer is an authorization server for tests, serving on a local
// httptest.Server. Its issuer identifier is its URL. It signs tokens with
// one ES256 key, made when it starts. Close it when done.
type Issuer struct {
	// URL is the issuer identifier, the base URL of the server:
	// http://127.0.0.1:port.
	URL string

	srv  *httptest.Server
	key  *ecdsa.PrivateKey
	jwks []byte
	meta []byte
}

// NewIssuer starts an Issuer. It serves:
//   - /.well-known/oauth-authorization-server and
//     /.well-known/openid-configuration: its metadata (issuer, jwks_uri);
//   - /jwks: its public key.
func NewIssuer() *Issuer {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(fmt.Sprintf("authtest: generating a key: %v", err))
	}
	is := &Issuer{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", is.serveMetadata)
	mux.HandleFunc("/.well-known/openid-configuration", is.serveMetadata)
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, is.jwks)
	})
	is.srv = httptest.NewServer(mux)
	is.URL = is.srv.URL
	is.meta = mustJSON(map[string]any{
		"issuer":                                is.URL,
		"jwks_uri":                              is.URL + "/jwks",
		"response_types_supported":              []string{"code"},
		"id_token_signing_alg_values_supported": []string{"ES256"},
		"subject_types_supported":               []string{"public"},
	})
	is.jwks = mustJSON(map[string]any{"keys": []map[string]string{is.publicJWK()}})
	return is
}

// Close shuts the Issuer's server down.
func (is *Issuer) Close() { is.srv.Close() }

// Verifier returns an auth.JWTVerifier of the Issuer's tokens meant for
// audience, the protected server's canonical URL.
func (is *Issuer) Verifier(audience string) (*auth.JWTVerifier, error) {
	return auth.NewJWTVerifier(&auth.JWTVerifierOptions{Issuer: is.URL, Audience: audience})
}

// Claims are the claims of a token an Issuer mints.
type Claims struct {
	// Subject is "sub" (default "authtest-user").
	Subject string
	// Audience is "aud": the canonical URL of the server the token is
	// meant for. Leave it empty only to test a token without one.
	Audience string
	// Scopes are the space-separated "scope".
	Scopes []string
	// ClientID is "client_id" (default "authtest-client").
	ClientID string
	// ExpiresIn sets "exp" from now (default one hour); a negative value
	// makes a token that has already expired.
	ExpiresIn time.Duration
	// JKT, if set, binds the token to a DPoP key: "cnf":{"jkt":JKT}, the
	// key's thumbprint (auth.DPoPProver.Thumbprint).
	JKT string
	// Extra are further claims; they replace the ones above of the same
	// name.
	Extra map[string]any
}

// Token returns an access token with the claims c, signed by the Issuer
// with "iss" its URL, "iat" and "nbf" now, and a fresh "jti".
func (is *Issuer) Token(c Claims) string {
	now := time.Now()
	exp := c.ExpiresIn
	if exp == 0 {
		exp = time.Hour
	}
	claims := map[string]any{
		"iss":       is.URL,
		"sub":       orDefault(c.Subject, "authtest-user"),
		"client_id": orDefault(c.ClientID, "authtest-client"),
		"iat":       now.Unix(),
		"nbf":       now.Unix(),
		"exp":       now.Add(exp).Unix(),
		"jti":       randomID(),
	}
	if c.Audience != "" {
		claims["aud"] = c.Audience
	}
	if len(c.Scopes) > 0 {
		claims["scope"] = strings.Join(c.Scopes, " ")
	}
	if c.JKT != "" {
		claims["cnf"] = map[string]string{"jkt": c.JKT}
	}
	for k, v := range c.Extra {
		claims[k] = v
	}
	return is.sign(map[string]string{"alg": "ES256", "typ": "at+jwt", "kid": KeyID}, claims)
}

// sign returns the compact JWS of claims with header, signed with the
// Issuer's key.
func (is *Issuer) sign(header map[string]string, claims map[string]any) string {
	input := b64(mustJSON(header)) + "." + b64(mustJSON(claims))
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, is.key, digest[:])
	if err != nil {
		panic(fmt.Sprintf("authtest: signing: %v", err))
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + b64(sig)
}

// publicJWK returns the public key as a JWK (RFC 7518 section 6.2).
func (is *Issuer) publicJWK() map[string]string {
	pub, err := is.key.PublicKey.ECDH()
	if err != nil {
		panic(fmt.Sprintf("authtest: public key: %v", err))
	}
	pt := pub.Bytes() // 0x04 || X || Y
	return map[string]string{"kty": "EC", "crv": "P-256", "x": b64(pt[1:33]), "y": b64(pt[33:65]),
		"kid": KeyID, "alg": "ES256", "use": "sig"}
}

func (is *Issuer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, is.meta)
}

func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("authtest: encoding %T: %v", v, err))
	}
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// randomID returns 16 random bytes, base64url-encoded.
func randomID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return b64(b)
}
