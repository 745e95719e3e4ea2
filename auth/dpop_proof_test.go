package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestDPoPWithNonces(t *testing.T) {
	as := newFakeAS(t, "")
	as.md.DPoPSigningAlgValuesSupported = []string{"ES256"}
	as.dpopNonce = "as-nonce"
	rs := newFakeRS(t, as)
	rs.dpop, rs.dpopNonce = true, "rs-nonce"
	tr, _, _ := newCodeTransport(t, rs, nil)
	for i := 0; i < 3; i++ {
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("request %d: %d, %v", i, status, err)
		}
	}
	if tok := tr.Token(); tok == nil || tok.TokenType != "DPoP" {
		t.Fatalf("token %v, want a DPoP token", tok)
	}
	// Token endpoint: a proof without nonce, then one with the AS's.
	if n := as.count("POST /token"); n != 2 {
		t.Errorf("%d token requests, want 2 (the second with the nonce)", n)
	}
	for _, h := range as.tokenHeaders {
		if len(h.Values("DPoP")) != 1 {
			t.Errorf("token request has %d DPoP headers", len(h.Values("DPoP")))
		}
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, a := range rs.authz {
		if strings.HasPrefix(a, "Bearer ") {
			t.Errorf("a DPoP token was sent as Bearer: %q", a)
		}
	}
}

func TestDPoPProofClaims(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p, err := NewDPoPProver(key, "")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://mcp.example.com/mcp")
	p.observeNonce(u, http.Header{"Dpop-Nonce": {"n1"}})
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		proof, err := p.Proof("POST", "https://mcp.example.com/mcp?x=1#f", "the-token")
		if err != nil {
			t.Fatal(err)
		}
		jkt, nonce, err := verifyDPoPProof(proof, "POST", "https://mcp.example.com/mcp", "the-token")
		if err != nil {
			t.Fatal(err)
		}
		if jkt != p.Thumbprint() || nonce != "n1" {
			t.Errorf("jkt %q nonce %q", jkt, nonce)
		}
		if seen[proof] {
			t.Error("proof reused")
		}
		seen[proof] = true
	}
	// Another origin has its own nonce.
	other, _ := p.Proof("POST", "https://as.example.com/token", "")
	if _, nonce, err := verifyDPoPProof(other, "POST", "https://as.example.com/token", ""); err != nil || nonce != "" {
		t.Errorf("nonce %q at another origin, err %v", nonce, err)
	}
}

func TestJWKThumbprintRFC7638(t *testing.T) {
	// The example key of RFC 7638 section 3.1.
	jwk := map[string]string{
		"kty": "RSA",
		"n":   "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
		"e":   "AQAB",
	}
	got, err := jwkThumbprint(jwk)
	if err != nil || got != "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs" {
		t.Errorf("thumbprint = %q, %v", got, err)
	}
}
