package mcp

import "context"

// A ResourceHandler reads a resource for resources/read.
type ResourceHandler func(ctx context.Context, ss *ServerSession, params *ReadResourceParams) (*ReadResourceResult, error)

// A ServerResource is a resource bound to the handler that reads it.
type ServerResource struct {
	Resource *Resource
	Handler  ResourceHandler
}

// A ServerResourceTemplate is a resource template bound to the handler that
// reads the resources it matches.
type ServerResourceTemplate struct {
	Template *ResourceTemplate
	Handler  ResourceHandler
}
