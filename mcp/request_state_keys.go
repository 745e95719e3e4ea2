package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
)

// stateMACOK reports whether sig is the HMAC-SHA256 of body under the
// server's current requestState key or one of its previous keys
// (ServerOptions.PreviousRequestStateKeys), so that every instance behind
// a load balancer verifies what any instance minted, and keys can rotate
// without failing the retries in progress. States are minted with the
// current key only; their expiry bounds how long a previous key matters.
func (s *Server) stateMACOK(body, sig []byte) bool {
	if macEqual(s.stateKey(), body, sig) {
		return true
	}
	for _, k := range s.opts.PreviousRequestStateKeys {
		if len(k) > 0 && macEqual(k, body, sig) {
			return true
		}
	}
	return false
}

func macEqual(key, body, sig []byte) bool {
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	return hmac.Equal(sig, mac.Sum(nil))
}
