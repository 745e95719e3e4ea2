package auth

import (
	"context"
	"net/http"

	"github.com/gomcp/sdk/mcp"
)

// tokenInfoContext is a context carrying a TokenInfo, as
// context.WithValue(parent, tokenInfoKey{}, ti) would, in a type of its
// own so that it can share an allocation with the request copy that
// carries it (see withTokenInfo).
type tokenInfoContext struct {
	context.Context
	ti *TokenInfo
}

// Value returns the TokenInfo for tokenInfoKey{}, and the parent's value
// for any other key.
func (c *tokenInfoContext) Value(key any) any {
	if _, ok := key.(tokenInfoKey); ok {
		return c.ti
	}
	return c.Context.Value(key)
}

// String describes the context, as context.WithValue's contexts do
// (without the TokenInfo, which is nobody's business in a log).
func (c *tokenInfoContext) String() string {
	return contextName(c.Context) + ".WithValue(auth.TokenInfo)"
}

// contextName returns the description of c, as the context package
// prints it.
func contextName(c context.Context) string {
	if s, ok := c.(interface{ String() string }); ok {
		return s.String()
	}
	return "context"
}

// authorizedRequest is the request a verified request is passed on as:
// a shallow copy of it whose context carries its TokenInfo, in one
// allocation for both.
type authorizedRequest struct {
	req http.Request
	ctx tokenInfoContext
}

// withTokenInfo returns a shallow copy of r whose context carries ti, as
// r.WithContext(ContextWithTokenInfo(r.Context(), ti)) does, with one
// heap allocation instead of two: the copy WithContext makes is only
// read here, so it stays on the stack (TestWithTokenInfoAllocs). A
// non-empty principal is put in the context too, as the session's owner
// (mcp.WithSessionOwner, which names the principal as well) if session is
// set and as the principal alone (mcp.WithPrincipal) if not; a non-nil
// authorize (mcp.WithAuthorize) too. Each costs one allocation more.
func withTokenInfo(r *http.Request, ti *TokenInfo, principal string, session bool, authorize mcp.AuthorizeFunc) *http.Request {
	parent := r.Context()
	switch {
	case principal == "":
	case session:
		parent = mcp.WithSessionOwner(parent, principal)
	default:
		parent = mcp.WithPrincipal(parent, principal)
	}
	if authorize != nil {
		parent = mcp.WithAuthorize(parent, authorize)
	}
	a := &authorizedRequest{ctx: tokenInfoContext{Context: parent, ti: ti}}
	a.req = *r.WithContext(&a.ctx)
	return &a.req
}
