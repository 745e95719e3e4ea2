package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// TokenInfo is what a TokenVerifier learned from a valid access token:
// who the token speaks for, which client holds it, what it allows and
// until when. RequireBearerToken stores it in the request's context, where
// tool, prompt and resource handlers read it with TokenInfoFromContext.
type TokenInfo struct {
	// Subject is the token's "sub": the user (or, for client credentials,
	// the client) the token speaks for.
	Subject string
	// ClientID is the OAuth client the token was issued to ("client_id",
	// or "azp" in OpenID Connect tokens).
	ClientID string
	// Issuer is the authorization server that issued the token ("iss").
	Issuer string
	// Scopes are the scopes the token grants.
	Scopes []string
	// Audience lists the resources the token is meant for ("aud").
	Audience []string
	// Expiration is when the token expires; the zero time means the
	// verifier learned no expiry.
	Expiration time.Time
	// IssuedAt is when the token was issued ("iat"), or the zero time.
	IssuedAt time.Time
	// ID is the token's identifier ("jti"), if it has one.
	ID string
	// JKT is the RFC 7638 SHA-256 thumbprint of the key the token is bound
	// to ("cnf.jkt", RFC 9449). A token with a JKT is accepted only with
	// the Authorization scheme DPoP and a proof signed by that key.
	JKT string
	// RawClaims holds the token's claims as JSON (for a JWT its payload,
	// for introspection the response), so that applications can read
	// claims of their own with DecodeClaims.
	RawClaims []byte

	owner string // sessionOwner, computed once by this package's verifiers
}

// HasScope reports whether the token grants scope exactly.
func (ti *TokenInfo) HasScope(scope string) bool {
	return ti != nil && slices.Contains(ti.Scopes, scope)
}

// DecodeClaims decodes the token's claims into v (a pointer to a struct or
// map), case-sensitively and refusing duplicate names.
func (ti *TokenInfo) DecodeClaims(v any) error {
	if ti == nil || len(ti.RawClaims) == 0 {
		return errors.New("auth: token has no claims")
	}
	return strictjson.Unmarshal(ti.RawClaims, v)
}

// sessionOwner returns the owner of the legacy sessions this token
// creates (mcp.WithSessionOwner): a digest of who the token speaks for,
// through which client, from which issuer. A digest, so that the session
// store holds no identities and every owner has one length.
func (ti *TokenInfo) sessionOwner() string {
	if ti.owner != "" {
		return ti.owner
	}
	return ownerOf(ti)
}

// ownerOf computes ti's session owner: SHA-256 of its issuer, subject and
// client id, each quoted so that no two triples read alike.
func ownerOf(ti *TokenInfo) string {
	var b []byte
	b = strconv.AppendQuote(b, ti.Issuer)
	b = strconv.AppendQuote(b, ti.Subject)
	b = strconv.AppendQuote(b, ti.ClientID)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// withOwner records ti's session owner, once its identity is final and
// before it is shared.
func (ti *TokenInfo) withOwner() *TokenInfo {
	ti.owner = ownerOf(ti)
	return ti
}

type tokenInfoKey struct{}

// ContextWithTokenInfo returns a copy of ctx carrying ti, as
// RequireBearerToken stores it. Tests of handlers use it to run them as a
// given caller.
func ContextWithTokenInfo(ctx context.Context, ti *TokenInfo) context.Context {
	return context.WithValue(ctx, tokenInfoKey{}, ti)
}

// TokenInfoFromContext returns the TokenInfo of the verified token of the
// request being served, or nil if the request was not authenticated by
// RequireBearerToken. It works in HTTP handlers behind the middleware and
// in MCP tool, prompt and resource handlers alike, in every protocol era.
// The TokenInfo may be shared with other requests presenting the same
// token (verifiers cache it): read it, do not modify it.
func TokenInfoFromContext(ctx context.Context) *TokenInfo {
	if ti, ok := ctx.Value(tokenInfoKey{}).(*TokenInfo); ok {
		return ti
	}
	if r := mcp.HTTPRequestFromContext(ctx); r != nil {
		if ti, ok := r.Context().Value(tokenInfoKey{}).(*TokenInfo); ok {
			return ti
		}
	}
	return nil
}
