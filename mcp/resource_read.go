package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/gomcp/sdk/internal/uritemplate"
)

// templateValuesKey is the context key of the variables a resource
// template matched.
type templateValuesKey struct{}

// ResourceTemplateValues returns the values of the URI template variables
// of the resources/read being served, for the handler of a
// [ServerResourceTemplate]; it returns nil in any other context.
//
// Values are percent-decoded. A string variable has one value; a list has
// its items; an associative array has its names and values alternately.
// Variables the URI leaves undefined are absent. For the template
// "repo://{owner}/{name}{?ref}" and the URI "repo://me/proj?ref=main",
// Get("owner") is "me", Get("name") is "proj" and Get("ref") is "main".
func ResourceTemplateValues(ctx context.Context) url.Values {
	v, _ := ctx.Value(templateValuesKey{}).(url.Values)
	return v
}

// match returns the values of the template's variables if uri matches it.
func (t *ServerResourceTemplate) match(uri string) (url.Values, bool) {
	compiled := t.compiled
	if compiled == nil {
		// Not added through AddResourceTemplates (only tests do that).
		var err error
		if compiled, err = uritemplate.Parse(t.Template.URITemplate); err != nil {
			return nil, false
		}
	}
	vals, ok := compiled.Match(uri)
	if !ok {
		return nil, false
	}
	out := make(url.Values, len(vals))
	for name, v := range vals {
		if v.Kind() == uritemplate.KindString {
			out[name] = []string{v.String()}
		} else {
			out[name] = v.List()
		}
	}
	return out, true
}

// readResource serves resources/read: a plain resource with the exact URI
// first, then the first template, in URI-template order, that the URI
// matches.
func (ss *ServerSession) readResource(ctx context.Context, p *ReadResourceParams) (*ReadResourceResult, error) {
	s := ss.server
	var (
		handler  ResourceHandler
		mimeType string
	)
	if r, ok := s.resources.get(p.URI); ok {
		handler, mimeType = r.Handler, r.Resource.MIMEType
	} else {
		for _, t := range s.templates.all() {
			if vals, ok := t.match(p.URI); ok {
				handler, mimeType = t.Handler, t.Template.MIMEType
				ctx = context.WithValue(ctx, templateValuesKey{}, vals)
				break
			}
		}
	}
	if handler == nil {
		return nil, ss.resourceNotFound(p.URI)
	}
	res, err := handler(ctx, ss, p)
	if err != nil {
		var werr *JSONRPCError
		switch {
		case errors.Is(err, ErrResourceNotFound):
			return nil, ss.resourceNotFound(p.URI)
		case ctx.Err() != nil && errors.Is(err, ctx.Err()), errors.Is(err, errInputRequired), errors.As(err, &werr):
			return nil, err
		}
		return nil, fmt.Errorf("reading resource %s: %w", p.URI, err)
	}
	if res == nil {
		return nil, fmt.Errorf("reading resource %s: the handler returned no result", p.URI)
	}
	if res.Contents == nil {
		res.Contents = []*ResourceContents{}
	}
	for _, c := range res.Contents {
		if c == nil {
			return nil, fmt.Errorf("reading resource %s: the handler returned nil contents", p.URI)
		}
		if c.URI == "" {
			c.URI = p.URI
		}
		if c.MIMEType == "" {
			c.MIMEType = mimeType
		}
	}
	if ss.request != nil && (res.ResultType == "" || res.ResultType == "complete") {
		ss.server.setCacheHints(MethodReadResource, &res.TTLMs, &res.CacheScope)
	}
	return res, nil
}

// resourceNotFound returns the protocol's resource-not-found error for
// the session's protocol version: -32002 before 2026-07-28, -32602 since;
// both carry data {"uri": uri}.
func (ss *ServerSession) resourceNotFound(uri string) error {
	code := CodeResourceNotFound
	if ss.request != nil { // per-request metadata (2026-07-28)
		code = CodeInvalidParams
	}
	return newErrorWithData(code, "Resource not found", map[string]string{"uri": uri})
}

// isResourceNotFound reports whether err is a resource-not-found error
// from a server: -32002 (up to 2025-11-25), or -32602 with data.uri
// (2026-07-28).
func isResourceNotFound(err error) bool {
	var werr *JSONRPCError
	if !errors.As(err, &werr) {
		return false
	}
	switch werr.Code {
	case CodeResourceNotFound:
		return true
	case CodeInvalidParams:
		var data struct {
			URI *string `json:"uri"`
		}
		return len(werr.Data) > 0 && decodeResult(werr.Data, &data) == nil && data.URI != nil
	}
	return false
}
