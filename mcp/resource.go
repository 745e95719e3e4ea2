package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"github.com/gomcp/sdk/internal/uritemplate"
)

// A ResourceHandler reads a resource for resources/read. It returns the
// contents, built with [NewTextResourceContents] or
// [NewBlobResourceContents]; contents without a URI or MIME type get those
// of the resource or template that matched. To report that a resource does
// not exist (for a template, a URI that matches but names nothing), return
// an error wrapping [ErrResourceNotFound]: the client gets the protocol's
// resource-not-found error. A *JSONRPCError keeps its code; any other
// error is an internal error.
type ResourceHandler func(ctx context.Context, ss *ServerSession, params *ReadResourceParams) (*ReadResourceResult, error)

// ErrResourceNotFound reports a resource that does not exist. A
// ResourceHandler returns it (wrapped or not) to have the server answer
// with the protocol's not-found error: -32002 up to 2025-11-25, -32602
// with data {"uri": ...} in 2026-07-28. On the client side, the error
// ReadResource returns for either code matches it with errors.Is.
var ErrResourceNotFound = errors.New("mcp: resource not found")

// A ServerResource is a resource bound to the handler that reads it.
type ServerResource struct {
	Resource *Resource
	Handler  ResourceHandler
}

// A ServerResourceTemplate is a resource template bound to the handler that
// reads the resources it matches. Template.URITemplate is an RFC 6570 URI
// template (levels 1 to 4); a resources/read whose URI matches it, and no
// plain resource, goes to Handler, which can get the values of the
// template's variables with [ResourceTemplateValues].
type ServerResourceTemplate struct {
	Template *ResourceTemplate
	Handler  ResourceHandler
	// Completers suggest values for the template's variables in
	// completion/complete, keyed by variable name. A template with at least
	// one completer makes the server declare the completions capability.
	Completers map[string]Completer

	compiled *uritemplate.Template // set on the server's copy
}

// AddResources adds resources to the server, replacing any with the same
// URIs, and tells connected clients the resource list changed. It panics
// if a resource or its handler is nil or its URI is not an absolute URI:
// these are programming errors.
func (s *Server) AddResources(resources ...*ServerResource) {
	for _, r := range resources {
		if r == nil || r.Resource == nil || r.Handler == nil {
			panic("mcp: AddResources: resource and handler must not be nil")
		}
		if u, err := url.Parse(r.Resource.URI); err != nil || u.Scheme == "" {
			panic(fmt.Sprintf("mcp: AddResources: resource URI %q is not an absolute URI", r.Resource.URI))
		}
	}
	s.resources.add(func(r *ServerResource) string { return r.Resource.URI }, resources...)
	s.listChanged(NotificationResourceListChanged)
}

// RemoveResources removes the resources with the given URIs and tells
// connected clients if the list changed. URIs not present are ignored.
func (s *Server) RemoveResources(uris ...string) {
	if s.resources.remove(uris...) {
		s.listChanged(NotificationResourceListChanged)
	}
}

// AddResourceTemplates adds resource templates to the server, replacing
// any with the same URI templates, and tells connected clients the
// resource list changed. It panics if a template or its handler is nil,
// its URI template does not parse, or it has a completer for a variable
// the template does not have: these are programming errors.
func (s *Server) AddResourceTemplates(templates ...*ServerResourceTemplate) {
	copies := make([]*ServerResourceTemplate, len(templates))
	for i, t := range templates {
		if t == nil || t.Template == nil || t.Handler == nil {
			panic("mcp: AddResourceTemplates: template and handler must not be nil")
		}
		compiled, err := uritemplate.Parse(t.Template.URITemplate)
		if err != nil {
			panic("mcp: AddResourceTemplates: " + err.Error())
		}
		for name := range t.Completers {
			if !slices.Contains(compiled.Vars(), name) {
				panic(fmt.Sprintf("mcp: AddResourceTemplates: completer for %q, which is not a variable of %q", name, t.Template.URITemplate))
			}
		}
		c := *t
		c.compiled = compiled
		copies[i] = &c
	}
	s.templates.add(func(t *ServerResourceTemplate) string { return t.Template.URITemplate }, copies...)
	s.listChanged(NotificationResourceListChanged)
}

// RemoveResourceTemplates removes the templates with the given URI
// templates and tells connected clients if the list changed. Templates not
// present are ignored.
func (s *Server) RemoveResourceTemplates(uriTemplates ...string) {
	if s.templates.remove(uriTemplates...) {
		s.listChanged(NotificationResourceListChanged)
	}
}

// resourceCapabilities declares the resources capability when the server
// has resources or templates, or can take subscriptions; subscribe is
// declared when both subscription handlers are set.
func resourceCapabilities(s *Server, caps *ServerCapabilities) {
	subscribe := s.subscriptionsSupported()
	if caps.Resources == nil {
		if !subscribe && s.resources.len() == 0 && s.templates.len() == 0 {
			return
		}
		caps.Resources = &ResourceCapabilities{ListChanged: true}
	} else {
		c := *caps.Resources // caps.Resources may be the caller's ServerOptions
		caps.Resources = &c
	}
	if subscribe {
		caps.Resources.Subscribe = true
	}
}

func (ss *ServerSession) listResources(ctx context.Context, p *ListResourcesParams) (*ListResourcesResult, error) {
	items, next, err := ss.server.resources.page(p.Cursor, ss.server.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &ListResourcesResult{Resources: make([]*Resource, len(items)), NextCursor: next}
	for i, r := range items {
		res.Resources[i] = r.Resource
	}
	if ss.request != nil {
		ss.server.setCacheHints(MethodListResources, &res.TTLMs, &res.CacheScope)
	}
	return res, nil
}

func (ss *ServerSession) listResourceTemplates(ctx context.Context, p *ListResourceTemplatesParams) (*ListResourceTemplatesResult, error) {
	items, next, err := ss.server.templates.page(p.Cursor, ss.server.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &ListResourceTemplatesResult{ResourceTemplates: make([]*ResourceTemplate, len(items)), NextCursor: next}
	for i, t := range items {
		res.ResourceTemplates[i] = t.Template
	}
	if ss.request != nil {
		ss.server.setCacheHints(MethodListResourceTemplates, &res.TTLMs, &res.CacheScope)
	}
	return res, nil
}
