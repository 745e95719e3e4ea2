package mcp

import "context"

// sessionOwnerKey is the context key of WithSessionOwner.
type sessionOwnerKey struct{}

// WithSessionOwner returns a copy of ctx naming who its request acts for,
// such as the issuer, subject and client of its access token. HTTP
// middleware in front of a StreamableHTTPHandler or an SSEHTTPHandler sets
// it on the request's context; the auth module's RequireBearerToken does.
//
// A legacy session is bound to the owner of the request that created it: a
// later request of that session with another owner, or with none, is
// answered 404 as if the session did not exist, so a leaked session id is
// of no use with another token. The owner is kept in the session's
// SessionState, so every instance sharing a SessionStore enforces the
// binding. Requests of protocol 2026-07-28 have no session and are not
// affected.
func WithSessionOwner(ctx context.Context, owner string) context.Context {
	return &ownerContext{Context: ctx, owner: owner}
}

// SessionOwnerFromContext returns the owner WithSessionOwner put in ctx,
// or "" if there is none.
func SessionOwnerFromContext(ctx context.Context) string {
	if oc, ok := ctx.Value(sessionOwnerKey{}).(*ownerContext); ok {
		return oc.owner
	}
	return ""
}

// ownerContext is the context WithSessionOwner returns: a context of its
// own type rather than context.WithValue's, so that the owner costs one
// allocation (a string in an interface would cost two).
type ownerContext struct {
	context.Context
	owner string
}

// Value returns the ownerContext itself for sessionOwnerKey{}, and the
// parent's value for any other key.
func (c *ownerContext) Value(key any) any {
	if _, ok := key.(sessionOwnerKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// String describes the context, as context.WithValue's contexts do,
// without the owner.
func (c *ownerContext) String() string {
	if s, ok := c.Context.(interface{ String() string }); ok {
		return s.String() + ".WithSessionOwner"
	}
	return "context.WithSessionOwner"
}
