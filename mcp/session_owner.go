package mcp

import "context"

// sessionOwnerKey is the context key of WithSessionOwner.
type sessionOwnerKey struct{}

// WithSessionOwner returns a copy of ctx naming who its request acts for,
// such as the issuer, subject and client of its access token. HTTP
// middleware in front of a StreamableHTTPHandler or an SSEHTTPHandler sets
// it on the request's context; the auth module's RequireBearerToken does.
// The owner is the request's principal too (PrincipalFromContext).
//
// A legacy session is bound to the owner of the request that created it: a
// later request of that session with another owner, or with none, is
// answered 404 as if the session did not exist, so a leaked session id is
// of no use with another token. The owner is kept in the session's
// SessionState, so every instance sharing a SessionStore enforces the
// binding. Requests of protocol 2026-07-28 have no session and are not
// affected; name their principal with WithPrincipal.
func WithSessionOwner(ctx context.Context, owner string) context.Context {
	return &identityContext{Context: ctx, name: owner, session: true}
}

// SessionOwnerFromContext returns the owner WithSessionOwner put in ctx,
// or "" if there is none. A principal named with WithPrincipal is not a
// session owner: PrincipalFromContext reports both.
func SessionOwnerFromContext(ctx context.Context) string {
	if ic, ok := ctx.Value(sessionOwnerKey{}).(*identityContext); ok {
		return ic.name
	}
	return ""
}
