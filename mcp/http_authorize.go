package mcp

import (
	"context"
	"errors"
	"net/http"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Authorization of what a POST asks for. HTTP middleware sees a request's
// headers, not the JSON-RPC method in its body nor the tool, prompt or
// resource it acts on; the HTTP handlers decode the body anyway, so they
// run an AuthorizeFunc once they have, and middleware that wants to decide
// by method or name (the auth module's per-tool scopes) hands one to them
// instead of reading the body a second time.

// An AuthorizeRequest is what an AuthorizeFunc decides on: the POST and
// the JSON-RPC requests and notifications in its body, decoded.
type AuthorizeRequest struct {
	// HTTPRequest is the POST. Its body has been read: use the Messages.
	HTTPRequest *http.Request
	// Messages are the requests and notifications of the body, in order:
	// one, or several for a batch (protocol 2025-03-26). Responses to the
	// server's own requests are not listed.
	Messages []AuthorizeMessage
}

// An AuthorizeMessage is one request or notification of a POST.
type AuthorizeMessage struct {
	// Method is the JSON-RPC method, such as "tools/call".
	Method string
	// Name is what the request acts on: the tool's name for tools/call, the
	// prompt's for prompts/get, the resource's URI for resources/read,
	// resources/subscribe and resources/unsubscribe. It is "" for other
	// methods, and when the params do not decode (the request then fails
	// with invalid params, and is not served).
	Name string
}

// An AuthorizeFunc decides whether the messages of a POST may be served.
// It runs after the body has been decoded and before any of its messages
// is served, on the request's goroutine. A nil error lets the POST
// through.
//
// A non-nil error refuses the whole POST, and nothing in it is served. If
// the error, or one it wraps (errors.As), implements http.Handler, its
// ServeHTTP writes the response: a 403 with a WWW-Authenticate challenge,
// say. Otherwise the POST is answered 403 with a JSON-RPC error response
// (code CodeInvalidRequest) carrying the error's text.
type AuthorizeFunc func(ctx context.Context, req *AuthorizeRequest) error

// authorizeKey is the context key of WithAuthorize.
type authorizeKey struct{}

// WithAuthorize returns a copy of ctx carrying f, for HTTP middleware in
// front of a StreamableHTTPHandler or an SSEHTTPHandler: the handler runs
// f on every POST it serves with that context, as it runs its options'
// Authorize, once it has decoded the body (after Authorize, if both are
// set). The auth module's RequireBearerToken uses it to check per-method,
// tool, prompt and resource scopes. Each call adds a function; all of them
// run, the outermost middleware's first.
func WithAuthorize(ctx context.Context, f AuthorizeFunc) context.Context {
	return &authorizeContext{Context: ctx, f: f, next: authorizersOf(ctx)}
}

// authorizeContext is the context WithAuthorize returns; it links to the
// authorizer of an enclosing WithAuthorize, if any.
type authorizeContext struct {
	context.Context
	f    AuthorizeFunc
	next *authorizeContext
}

// Value returns the authorizeContext itself for authorizeKey{}, and the
// parent's value for any other key.
func (c *authorizeContext) Value(key any) any {
	if _, ok := key.(authorizeKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// String describes the context, as context.WithValue's contexts do.
func (c *authorizeContext) String() string {
	if s, ok := c.Context.(interface{ String() string }); ok {
		return s.String() + ".WithAuthorize"
	}
	return "context.WithAuthorize"
}

// authorizersOf returns the innermost authorizer WithAuthorize put in ctx,
// or nil.
func authorizersOf(ctx context.Context) *authorizeContext {
	c, _ := ctx.Value(authorizeKey{}).(*authorizeContext)
	return c
}

// authorize runs own (a handler's option) and the authorizers of r's
// context on msg, before anything in it is served. It returns false after
// answering a refused POST. With no authorizer it costs a context lookup.
func authorize(w http.ResponseWriter, r *http.Request, own AuthorizeFunc, msg jsonrpc2.Message) bool {
	chain := authorizersOf(r.Context())
	if own == nil && chain == nil {
		return true
	}
	ar := newAuthorizeRequest(r, msg)
	if len(ar.Messages) == 0 {
		return true // only responses: they ask for nothing
	}
	err := runAuthorizers(r.Context(), ar, own, chain)
	if err == nil {
		return true
	}
	var h http.Handler
	if errors.As(err, &h) {
		h.ServeHTTP(w, r)
		return false
	}
	writeHTTPError(w, http.StatusForbidden, CodeInvalidRequest, err.Error())
	return false
}

// runAuthorizers runs own, then the context's authorizers from the
// outermost middleware's inwards, and returns the first error.
func runAuthorizers(ctx context.Context, ar *AuthorizeRequest, own AuthorizeFunc, chain *authorizeContext) error {
	if own != nil {
		if err := own(ctx, ar); err != nil {
			return err
		}
	}
	var arr [4]AuthorizeFunc
	fs := arr[:0]
	for c := chain; c != nil; c = c.next {
		fs = append(fs, c.f)
	}
	for i := len(fs) - 1; i >= 0; i-- {
		if err := fs[i](ctx, ar); err != nil {
			return err
		}
	}
	return nil
}

// newAuthorizeRequest lists the requests and notifications of msg. The
// request and its first message share one allocation.
func newAuthorizeRequest(r *http.Request, msg jsonrpc2.Message) *AuthorizeRequest {
	one := &struct {
		ar  AuthorizeRequest
		arr [1]AuthorizeMessage
	}{}
	one.ar.HTTPRequest = r
	switch m := msg.(type) {
	case *jsonrpc2.Request:
		one.arr[0] = AuthorizeMessage{Method: m.Method, Name: decodeTarget(m)}
		one.ar.Messages = one.arr[:]
	case jsonrpc2.Batch:
		for _, bm := range m {
			if req, ok := bm.(*jsonrpc2.Request); ok {
				one.ar.Messages = append(one.ar.Messages, AuthorizeMessage{Method: req.Method, Name: decodeTarget(req)})
			}
		}
	}
	return &one.ar
}

// decodeTarget returns the name (tool, prompt) or URI (resource) that req
// acts on, or "" for other methods. It decodes the params of those methods
// with their protocol type and keeps them on req, so that the dispatch
// step (Server.dispatch) does not decode them again.
func decodeTarget(req *jsonrpc2.Request) string {
	var params any
	var target *string
	switch req.Method {
	case MethodCallTool:
		p := new(CallToolParams)
		params, target = p, &p.Name
	case MethodGetPrompt:
		p := new(GetPromptParams)
		params, target = p, &p.Name
	case MethodReadResource:
		p := new(ReadResourceParams)
		params, target = p, &p.URI
	case MethodSubscribe:
		p := new(SubscribeParams)
		params, target = p, &p.URI
	case MethodUnsubscribe:
		p := new(UnsubscribeParams)
		params, target = p, &p.URI
	default:
		return ""
	}
	if decodeRequestParams(req, params) != nil {
		return "" // dispatch decodes them again and reports the error
	}
	jsonrpc2.KeepDecodedParams(req, params)
	return *target
}
