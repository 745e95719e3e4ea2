package mcp

import (
	"context"
	"fmt"
	"iter"
)

// ListResources lists one page of the server's resources (spec method
// resources/list).
func (cs *ClientSession) ListResources(ctx context.Context, params *ListResourcesParams) (*ListResourcesResult, error) {
	if err := requireServer(cs.serverCaps.Resources != nil, "resources"); err != nil {
		return nil, err
	}
	return clientCall[ListResourcesParams, ListResourcesResult](ctx, cs, MethodListResources, params)
}

// ListResourceTemplates lists one page of the server's resource templates
// (spec method resources/templates/list).
func (cs *ClientSession) ListResourceTemplates(ctx context.Context, params *ListResourceTemplatesParams) (*ListResourceTemplatesResult, error) {
	if err := requireServer(cs.serverCaps.Resources != nil, "resources"); err != nil {
		return nil, err
	}
	return clientCall[ListResourceTemplatesParams, ListResourceTemplatesResult](ctx, cs, MethodListResourceTemplates, params)
}

// ReadResource reads a resource (spec method resources/read). If the
// server reports that the resource does not exist, with the code of any
// protocol version, the error matches [ErrResourceNotFound] with
// errors.Is, and *JSONRPCError with errors.As.
func (cs *ClientSession) ReadResource(ctx context.Context, params *ReadResourceParams) (*ReadResourceResult, error) {
	if err := requireServer(cs.serverCaps.Resources != nil, "resources"); err != nil {
		return nil, err
	}
	res, err := clientCall[ReadResourceParams, ReadResourceResult](ctx, cs, MethodReadResource, params)
	if err != nil && isResourceNotFound(err) {
		return nil, fmt.Errorf("%w: %w", ErrResourceNotFound, err)
	}
	return res, err
}

// Resources iterates over all the server's resources, page by page,
// starting at params.Cursor if params is not nil. It stops at the first
// error.
func (cs *ClientSession) Resources(ctx context.Context, params *ListResourcesParams) iter.Seq2[*Resource, error] {
	return paginate(ctx, params, cs.ListResources, func(r *ListResourcesResult) ([]*Resource, string) {
		return r.Resources, r.NextCursor
	})
}

// ResourceTemplates iterates over all the server's resource templates,
// page by page, starting at params.Cursor if params is not nil. It stops
// at the first error.
func (cs *ClientSession) ResourceTemplates(ctx context.Context, params *ListResourceTemplatesParams) iter.Seq2[*ResourceTemplate, error] {
	return paginate(ctx, params, cs.ListResourceTemplates, func(r *ListResourceTemplatesResult) ([]*ResourceTemplate, string) {
		return r.ResourceTemplates, r.NextCursor
	})
}

// Subscribe asks the server for notifications/resources/updated about one
// resource, delivered to ClientOptions.ResourceUpdatedHandler (spec method
// resources/subscribe, protocol 2025-11-25 and earlier). In 2026-07-28
// subscriptions are made with subscriptions/listen instead, and Subscribe
// returns an error matching ErrNotSupported.
func (cs *ClientSession) Subscribe(ctx context.Context, params *SubscribeParams) error {
	if err := cs.requireSubscribe(MethodSubscribe); err != nil {
		return err
	}
	// The server sends the updates on the GET stream.
	if err := cs.ensureServerStream(ctx); err != nil {
		return err
	}
	_, err := clientCall[SubscribeParams, EmptyResult](ctx, cs, MethodSubscribe, params)
	return err
}

// Unsubscribe cancels a subscription made with Subscribe (spec method
// resources/unsubscribe, protocol 2025-11-25 and earlier).
func (cs *ClientSession) Unsubscribe(ctx context.Context, params *UnsubscribeParams) error {
	if err := cs.requireSubscribe(MethodUnsubscribe); err != nil {
		return err
	}
	_, err := clientCall[UnsubscribeParams, EmptyResult](ctx, cs, MethodUnsubscribe, params)
	return err
}

func (cs *ClientSession) requireSubscribe(method string) error {
	if cs.modern {
		return fmt.Errorf("%w: %s is not part of protocol %s; use subscriptions/listen", ErrNotSupported, method, cs.version)
	}
	return requireServer(cs.serverCaps.Resources != nil && cs.serverCaps.Resources.Subscribe, "resources.subscribe")
}
