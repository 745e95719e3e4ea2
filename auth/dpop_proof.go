package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// maxDPoPNonce bounds a nonce a server may make the client repeat.
const maxDPoPNonce = 512

// DPoPProver makes the DPoP proofs of RFC 9449 that bind a client's tokens
// to its key: one proof per request, with the access token hash ("ath")
// for resource requests and the latest nonce each server (origin) gave.
// It is safe for concurrent use.
type DPoPProver struct {
	key   crypto.Signer
	alg   string
	jwk   map[string]string
	thumb string
	now   func() time.Time

	mu     sync.Mutex
	nonces map[string]string // origin -> nonce
}

// NewDPoPProver returns a prover signing with key using alg ("" picks the
// key's natural algorithm, such as ES256 for a P-256 key). A nil key means
// a fresh P-256 key, which lives as long as the prover.
func NewDPoPProver(key crypto.Signer, alg string) (*DPoPProver, error) {
	if key == nil {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("auth: generating a DPoP key: %w", err)
		}
		key = k
	}
	alg, err := signingAlgorithm(key, alg)
	if err != nil {
		return nil, err
	}
	jwk, err := publicJWK(key.Public())
	if err != nil {
		return nil, err
	}
	thumb, err := jwkThumbprint(jwk)
	if err != nil {
		return nil, err
	}
	return &DPoPProver{key: key, alg: alg, jwk: jwk, thumb: thumb, now: time.Now, nonces: map[string]string{}}, nil
}

// Algorithm returns the JWS algorithm of the proofs.
func (p *DPoPProver) Algorithm() string { return p.alg }

// Thumbprint returns the RFC 7638 SHA-256 thumbprint of the public key,
// which a DPoP-bound token carries as cnf.jkt.
func (p *DPoPProver) Thumbprint() string { return p.thumb }

// Proof returns a DPoP proof for a request of method to target. For a
// request to a resource server, accessToken is the token sent with it
// (its hash becomes "ath"); for a token request it is empty.
func (p *DPoPProver) Proof(method, target, accessToken string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("auth: DPoP target %q is not an absolute URL", truncate(target, 100))
	}
	htu := *u
	htu.RawQuery, htu.Fragment, htu.RawFragment = "", "", ""
	claims := map[string]any{
		"jti": randomString(16),
		"htm": method,
		"htu": htu.String(),
		"iat": p.now().Unix(),
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = b64url.EncodeToString(sum[:])
	}
	if n := p.nonce(u); n != "" {
		claims["nonce"] = n
	}
	return signJWT(p.key, p.alg, map[string]any{"typ": "dpop+jwt", "jwk": p.jwk}, claims)
}

func (p *DPoPProver) nonce(u *url.URL) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nonces[origin(u)]
}

// observeNonce remembers the DPoP-Nonce a response from u carried, and
// reports whether it changed.
func (p *DPoPProver) observeNonce(u *url.URL, h http.Header) bool {
	n := h.Get("DPoP-Nonce")
	if n == "" || len(n) > maxDPoPNonce || strings.ContainsAny(n, "\r\n") {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o := origin(u)
	if p.nonces[o] == n {
		return false
	}
	if len(p.nonces) > 64 {
		clear(p.nonces)
	}
	p.nonces[o] = n
	return true
}

// supportsAlg reports whether algs (from metadata) lists p's algorithm;
// an empty list says nothing, and is taken as yes.
func (p *DPoPProver) supportsAlg(algs []string) bool {
	if len(algs) == 0 {
		return true
	}
	for _, a := range algs {
		if a == p.alg {
			return true
		}
	}
	return false
}
