package auth

import (
	"context"
	"testing"
	"time"
)

// BenchmarkJWTParseAndCheck is the part of a JWT verification that is not
// the signature check: parsing, claims decoding and checking, TokenInfo.
func BenchmarkJWTParseAndCheck(b *testing.B) {
	as := newTestAS(b)
	v := newTestVerifier(b, as, func(o *JWTVerifierOptions) { o.CacheSize = -1 })
	tok := as.mint(b, "ES256", as.claims(testResource, "alice", "mcp:basic mcp:call"))
	if _, err := v.VerifyToken(context.Background(), tok); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ReportAllocs()
	for range b.N {
		jws, err := parseCompactJWS(tok, maxTokenBytes)
		if err != nil {
			b.Fatal(err)
		}
		var c jwtClaims
		if err := decodeClaims(jws.payload, &c); err != nil {
			b.Fatal(err)
		}
		exp, err := v.checkClaims(&c, now)
		if err != nil {
			b.Fatal(err)
		}
		if ti := newTokenInfo(&c, exp, jws.payload); ti.Subject != "alice" {
			b.Fatal(ti.Subject)
		}
	}
}

// BenchmarkJWTVerifyCachedKey is a full verification with the key cached
// and the token cache off.
func BenchmarkJWTVerifyCachedKey(b *testing.B) {
	as := newTestAS(b)
	v := newTestVerifier(b, as, func(o *JWTVerifierOptions) { o.CacheSize = -1 })
	tok := as.mint(b, "ES256", as.claims(testResource, "alice", "mcp:basic mcp:call"))
	b.ReportAllocs()
	for range b.N {
		if _, err := v.VerifyToken(context.Background(), tok); err != nil {
			b.Fatal(err)
		}
	}
}
