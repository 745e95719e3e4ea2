package main

import (
	"context"
	"encoding/json"

	"github.com/gomcp/sdk/mcp"
)

// watchedResourceURI is the resource whose subscribers get periodic
// updates.
const watchedResourceURI = "test://watched-resource"

// resources returns the direct resources of the resources-* scenarios.
func resources() []*mcp.ServerResource {
	return []*mcp.ServerResource{
		{
			Resource: &mcp.Resource{URI: "test://static-text", Name: "static-text", Title: "Static text",
				Description: "A static text resource.", MIMEType: "text/plain"},
			Handler: fixed(mcp.NewTextResourceContents("test://static-text", "text/plain",
				"This is the content of the static text resource.")),
		},
		{
			Resource: &mcp.Resource{URI: "test://static-binary", Name: "static-binary", Title: "Static binary",
				Description: "A static PNG image.", MIMEType: "image/png"},
			Handler: fixed(mcp.NewBlobResourceContents("test://static-binary", "image/png", pngImage)),
		},
		{
			Resource: &mcp.Resource{URI: watchedResourceURI, Name: "watched-resource", Title: "Watched resource",
				Description: "A resource whose subscribers are told every few seconds that it changed.", MIMEType: "text/plain"},
			Handler: fixed(mcp.NewTextResourceContents(watchedResourceURI, "text/plain", "This resource is watched for changes.")),
		},
	}
}

// resourceTemplates returns the template of resources-templates-read.
func resourceTemplates() []*mcp.ServerResourceTemplate {
	return []*mcp.ServerResourceTemplate{{
		Template: &mcp.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template-data",
			Title: "Data by ID", Description: "JSON data for any ID.", MIMEType: "application/json"},
		Handler: func(ctx context.Context, _ *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			id := mcp.ResourceTemplateValues(ctx).Get("id")
			text, err := json.Marshal(struct {
				ID           string `json:"id"`
				TemplateTest bool   `json:"templateTest"`
				Data         string `json:"data"`
			}{id, true, "Data for ID: " + id})
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				mcp.NewTextResourceContents(p.URI, "application/json", string(text)),
			}}, nil
		},
	}}
}

// fixed returns a handler that reads c.
func fixed(c *mcp.ResourceContents) mcp.ResourceHandler {
	return func(context.Context, *mcp.ServerSession, *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}
