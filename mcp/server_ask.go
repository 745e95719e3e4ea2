package mcp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/jsonschema"
)

// Requests a server makes of its client: roots, sampling and elicitation.
// Handler code calls them the same way in every protocol version. Before
// 2026-07-28 they are requests to the client. In 2026-07-28 the SDK answers
// the client's request with an input-required result instead, and when the
// client retries with the answers, the handler runs again and gets them:
// handlers must ask the same questions in the same order on every run and
// return the error these methods return unchanged.

// ListRoots asks the client for its roots.
//
// Deprecated: protocol 2026-07-28 deprecates roots (SEP-2577). They still
// work with every protocol version; new programs should pass directories
// and files as tool arguments, resource URIs or configuration instead.
func (ss *ServerSession) ListRoots(ctx context.Context, params *ListRootsParams) (*ListRootsResult, error) {
	if ss.ClientCapabilities().Roots == nil {
		return nil, ss.missingCapability("roots", &ClientCapabilities{Roots: &RootsCapability{}})
	}
	return askClient[ListRootsParams, ListRootsResult](ctx, ss, MethodListRoots, params)
}

// Roots iterates over the client's roots. In a session made by initialize
// the list is cached and refreshed after the client reports a change.
//
// Deprecated: protocol 2026-07-28 deprecates roots (SEP-2577). They still
// work with every protocol version; new programs should pass directories
// and files as tool arguments, resource URIs or configuration instead.
func (ss *ServerSession) Roots(ctx context.Context) iter.Seq2[*Root, error] {
	return func(yield func(*Root, error) bool) {
		root := ss.root().state()
		root.mu.Lock()
		cached := root.rootsCache
		root.mu.Unlock()
		if cached == nil || ss.request != nil {
			res, err := ss.ListRoots(ctx, nil)
			if err != nil {
				yield(nil, err)
				return
			}
			cached = res.Roots
			if ss.request == nil {
				root.mu.Lock()
				root.rootsCache = cached
				root.mu.Unlock()
			}
		}
		for _, r := range cached {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// CreateMessage asks the client to sample a message from its language model.
//
// Deprecated: protocol 2026-07-28 deprecates sampling (SEP-2577). It still
// works with clients of every protocol version; new servers should call
// their model provider's API directly.
func (ss *ServerSession) CreateMessage(ctx context.Context, params *CreateMessageParams) (*CreateMessageResult, error) {
	caps := ss.ClientCapabilities()
	if caps.Sampling == nil {
		return nil, ss.missingCapability("sampling", &ClientCapabilities{Sampling: &SamplingCapability{}})
	}
	if params != nil && (len(params.Tools) > 0 || params.ToolChoice != nil) && caps.Sampling.Tools == nil {
		return nil, ss.missingCapability("sampling.tools", &ClientCapabilities{Sampling: &SamplingCapability{Tools: &SamplingToolsCapability{}}})
	}
	return askClient[CreateMessageParams, CreateMessageResult](ctx, ss, MethodCreateMessage, params)
}

// Elicit asks the user, through the client, for information: a form
// described by params.RequestedSchema (mode "form", the default) or a visit
// to params.URL (mode "url"). Accepted form content is validated against
// the requested schema.
func (ss *ServerSession) Elicit(ctx context.Context, params *ElicitParams) (*ElicitResult, error) {
	if params == nil {
		return nil, fmt.Errorf("mcp: Elicit needs params")
	}
	caps := ss.ClientCapabilities().Elicitation
	url := params.Mode == "url"
	switch {
	case caps == nil:
		return nil, ss.missingCapability("elicitation", &ClientCapabilities{Elicitation: &ElicitationCapability{}})
	case url && caps.URL == nil:
		return nil, ss.missingCapability("elicitation.url", &ClientCapabilities{Elicitation: &ElicitationCapability{URL: &URLElicitationCapability{}}})
	}
	var resolved *jsonschema.Resolved
	if !url {
		var err error
		if resolved, err = elicitationSchema(params.RequestedSchema); err != nil {
			return nil, err
		}
	}
	res, err := askClient[ElicitParams, ElicitResult](ctx, ss, MethodElicit, params)
	if err != nil {
		return nil, err
	}
	switch res.Action {
	case "accept", "decline", "cancel":
	default:
		return nil, newError(CodeInvalidParams, "elicitation answer has invalid action %q", res.Action)
	}
	if res.Action == "accept" && resolved != nil {
		content := res.Content
		if content == nil {
			content = map[string]any{}
		}
		if err := resolved.Validate(content); err != nil {
			return nil, newError(CodeInvalidParams, "elicitation answer does not match the requested schema: %v", err)
		}
	}
	return res, nil
}

// askClient asks the client through the sending middleware: with a
// request in the legacy era, with an input request in 2026-07-28.
func askClient[P, R any](ctx context.Context, ss *ServerSession, method string, params *P) (*R, error) {
	if r := legacyTaskOf(ctx); r != nil && ss.request == nil {
		// The handler of a 2025-11-25 task asks: the task waits on input.
		params = askingFor(r, ctx, params)
		defer r.gotInput(ctx)
	}
	h := ss.server.sendingHandler()
	if h == nil {
		return serverAsk[P, R](ctx, ss, nil, method, params)
	}
	if params == nil {
		params = new(P)
	}
	rc := &requestContext{method: method, server: ss, send: sendAsk[P, R]}
	ss.reserveCallID(ctx, rc, true)
	out, err := sendVia(ctx, h, rc, ss, params)
	if err != nil {
		return nil, err
	}
	res, ok := out.(*R)
	if !ok || res == nil {
		return nil, fmt.Errorf("mcp: sending middleware returned %T as the result of %s, not %T", out, method, res)
	}
	return res, nil
}

// sendAsk is the send function of askClient.
func sendAsk[P, R any](rc *requestContext, ctx context.Context, p any) (any, error) {
	pp, ok := p.(*P)
	if !ok {
		return nil, fmt.Errorf("mcp: sending middleware passed %T as params of %s, not %T", p, rc.method, pp)
	}
	res, err := serverAsk[P, R](ctx, rc.server, rc, rc.method, pp)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// elicitationSchema compiles a requested schema, which the protocol limits
// to an object of primitive properties.
func elicitationSchema(es *ElicitationSchema) (*jsonschema.Resolved, error) {
	if es == nil {
		return nil, fmt.Errorf("mcp: form elicitation needs a RequestedSchema")
	}
	raw, err := strictjson.Marshal(es)
	if err != nil {
		return nil, fmt.Errorf("mcp: requested schema: %w", err)
	}
	var s jsonschema.Schema
	if err := strictjson.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("mcp: requested schema: %w", err)
	}
	return s.Resolve(nil)
}

// AddRoots adds roots to the client, replacing any with the same URI, and
// tells connected servers the list changed. A client declares the roots
// capability only while it has roots (or ClientOptions.Capabilities says
// so): a session made by initialize keeps what it declared then, a
// 2026-07-28 session declares it from its next request on.
//
// Deprecated: protocol 2026-07-28 deprecates roots (SEP-2577). They still
// work with every protocol version; new programs should pass directories
// and files as tool arguments, resource URIs or configuration instead.
func (c *Client) AddRoots(roots ...*Root) {
	c.mu.Lock()
	for _, r := range roots {
		c.roots = slices.DeleteFunc(c.roots, func(x *Root) bool { return x.URI == r.URI })
		c.roots = append(c.roots, r)
	}
	c.caps.Store(c.capabilities())
	c.mu.Unlock()
	c.rootsChanged()
}

// RemoveRoots removes the roots with the given URIs and tells connected
// servers if the list changed.
//
// Deprecated: protocol 2026-07-28 deprecates roots (SEP-2577). They still
// work with every protocol version; new programs should pass directories
// and files as tool arguments, resource URIs or configuration instead.
func (c *Client) RemoveRoots(uris ...string) {
	c.mu.Lock()
	n := len(c.roots)
	c.roots = slices.DeleteFunc(c.roots, func(x *Root) bool { return slices.Contains(uris, x.URI) })
	changed := len(c.roots) != n
	if changed {
		c.caps.Store(c.capabilities())
	}
	c.mu.Unlock()
	if changed {
		c.rootsChanged()
	}
}

func (c *Client) rootsChanged() {
	for cs := range c.Sessions() {
		// A session that did not declare roots in initialize (the client
		// had none then) does not send roots/list_changed.
		if !cs.modern && cs.caps.Roots != nil && cs.caps.Roots.ListChanged {
			go func() {
				// The server answers with roots/list, on the GET stream.
				ctx := context.Background()
				if err := cs.ensureServerStream(ctx); err != nil {
					c.logger().Debug("mcp: opening the stream for the server's requests failed", "error", err)
				}
				if err := cs.notify(ctx, NotificationRootsListChanged, &RootsListChangedParams{}); err != nil && !errors.Is(err, ErrConnectionClosed) {
					c.logger().Warn("mcp: dropped notification", "method", NotificationRootsListChanged, "error", err)
				}
			}()
		}
	}
}

func (cs *ClientSession) listRoots(context.Context, *ListRootsParams) (*ListRootsResult, error) {
	c := cs.client
	c.mu.Lock()
	roots := slices.Clone(c.roots)
	c.mu.Unlock()
	if roots == nil {
		roots = []*Root{}
	}
	return &ListRootsResult{Roots: roots}, nil
}

func (cs *ClientSession) createMessage(ctx context.Context, p *CreateMessageParams) (*CreateMessageResult, error) {
	h := cs.client.opts.CreateMessageHandler
	if h == nil {
		return nil, newError(CodeMethodNotFound, "this client does not support sampling")
	}
	return h(ctx, cs, p)
}

func (cs *ClientSession) elicit(ctx context.Context, p *ElicitParams) (*ElicitResult, error) {
	h := cs.client.opts.ElicitationHandler
	if h == nil {
		return nil, newError(CodeMethodNotFound, "this client does not support elicitation")
	}
	res, err := h(ctx, cs, p)
	if err != nil || res == nil || res.Action != "accept" || p.RequestedSchema == nil {
		return res, err
	}
	// Fields the user left out take the defaults of the requested schema.
	for name, prop := range p.RequestedSchema.Properties {
		if prop == nil || prop.Default == nil {
			continue
		}
		if _, ok := res.Content[name]; !ok {
			if res.Content == nil {
				res.Content = make(map[string]any)
			}
			res.Content[name] = prop.Default
		}
	}
	return res, nil
}

func (ss *ServerSession) rootsChanged() {
	root := ss.root()
	root.mu.Lock()
	root.rootsCache = nil
	root.mu.Unlock()
}
