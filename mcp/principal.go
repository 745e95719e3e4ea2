package mcp

import "context"

// principalKey is the context key of WithPrincipal and WithSessionOwner.
type principalKey struct{}

// WithPrincipal returns a copy of ctx naming the authenticated principal
// its request acts for, such as a digest of the issuer, subject and client
// of its access token: a stable name for who is asking, never the
// credential itself. HTTP middleware in front of a StreamableHTTPHandler
// or an SSEHTTPHandler sets it on the request's context, and handlers read
// it with PrincipalFromContext; the auth module's RequireBearerToken sets
// it on every request it lets through, in every protocol era.
//
// Unlike WithSessionOwner, it binds no session to the principal: use it
// for requests that have no session (protocol 2026-07-28), or to name a
// principal without that binding.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return &identityContext{Context: ctx, name: principal}
}

// PrincipalFromContext returns the authenticated principal of the request
// ctx belongs to: the one named by the nearer of WithPrincipal and
// WithSessionOwner (a session's owner is the principal of its requests),
// or "" if there is none. Behind the auth module's RequireBearerToken it
// is the same for every request with a token of one issuer, subject and
// client, session-based or not, and "" only for a request the middleware
// did not authenticate. It is what the Events extension's webhook
// subscriptions belong to.
func PrincipalFromContext(ctx context.Context) string {
	if ic, ok := ctx.Value(principalKey{}).(*identityContext); ok {
		return ic.name
	}
	return ""
}

// identityContext is the context WithPrincipal and WithSessionOwner
// return: a context of its own type rather than context.WithValue's, so
// that naming the principal costs one allocation (a string in an interface
// would cost two).
type identityContext struct {
	context.Context
	name    string
	session bool // WithSessionOwner: name owns the request's session too
}

// Value returns the identityContext itself for principalKey{}, and for
// sessionOwnerKey{} if it names a session owner; the parent's value for
// any other key.
func (c *identityContext) Value(key any) any {
	switch key.(type) {
	case principalKey:
		return c
	case sessionOwnerKey:
		if c.session {
			return c
		}
	}
	return c.Context.Value(key)
}

// String describes the context, as context.WithValue's contexts do,
// without the name.
func (c *identityContext) String() string {
	kind := "WithPrincipal"
	if c.session {
		kind = "WithSessionOwner"
	}
	if s, ok := c.Context.(interface{ String() string }); ok {
		return s.String() + "." + kind
	}
	return "context." + kind
}
