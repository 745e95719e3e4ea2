package auth

import (
	"crypto/rand"
	"crypto/sha256"
)

// newPKCEVerifier returns a fresh PKCE code verifier (RFC 7636 section
// 4.1): 32 random bytes, base64url-encoded into 43 characters.
func newPKCEVerifier() string {
	return randomString(32)
}

// pkceChallengeS256 returns the S256 code challenge of verifier.
func pkceChallengeS256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return b64url.EncodeToString(sum[:])
}

// randomString returns n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics on failure since Go 1.24)
	return b64url.EncodeToString(b)
}
