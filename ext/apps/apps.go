package apps

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// A View is the HTML document of an app, served as a "ui://" resource.
type View struct {
	// URI is the view's URI; it must start with "ui://".
	URI string
	// Name is the resource's programmatic name; it defaults to the URI.
	Name string
	// Title and Description describe the view in resources/list.
	Title       string
	Description string
	// HTML is the complete HTML5 document of the view.
	HTML string
	// Meta is what the host needs to sandbox the view; nil asks for the
	// host's defaults.
	Meta *ResourceMeta
}

// ToolOptions are options of AddAppTool; nil means defaults.
type ToolOptions struct {
	// Visibility lists who sees the tool; empty means both the model and
	// the app.
	Visibility []Visibility
}

// ErrInvalidView reports a view AddAppTool cannot serve.
var ErrInvalidView = errors.New("apps: invalid view")

// AddAppTool registers tool on s as an app tool whose view is v: it
// registers v as a resource of type MIMEType, and points the tool at it in
// its _meta (both under MetaKey and under the deprecated
// FlatResourceURIKey). Several tools may share one view; registering
// the same view URI again replaces the resource.
//
// The tool's result is sent as it is, to every client: its text content
// is what hosts without Apps show. It returns an error wrapping
// ErrInvalidView for a view that is not a "ui://" HTML document, and an
// error for a nil tool or handler.
func AddAppTool(s *mcp.Server, tool *mcp.ServerTool, v *View, opts *ToolOptions) error {
	if tool == nil || tool.Tool == nil || tool.Handler == nil {
		return errors.New("apps: AddAppTool: tool and handler must not be nil")
	}
	if err := checkView(v); err != nil {
		return err
	}
	meta := ToolMeta{ResourceURI: v.URI}
	if opts != nil {
		for _, vis := range opts.Visibility {
			if vis != VisibleToModel && vis != VisibleToApp {
				return fmt.Errorf("apps: AddAppTool %s: unknown visibility %q", tool.Tool.Name, vis)
			}
		}
		meta.Visibility = append([]Visibility(nil), opts.Visibility...)
	}
	if tool.Tool.Meta.Data == nil {
		tool.Tool.Meta.Data = make(map[string]any)
	}
	tool.Tool.Meta.Data[MetaKey] = meta
	tool.Tool.Meta.Data[FlatResourceURIKey] = v.URI
	s.AddResources(viewResource(v))
	s.AddTools(tool)
	return nil
}

// checkView checks that v can be served.
func checkView(v *View) error {
	switch {
	case v == nil:
		return fmt.Errorf("%w: nil", ErrInvalidView)
	case !strings.HasPrefix(v.URI, URIScheme) || len(v.URI) == len(URIScheme):
		return fmt.Errorf("%w: URI %q does not start with %q", ErrInvalidView, v.URI, URIScheme)
	case strings.TrimSpace(v.HTML) == "":
		return fmt.Errorf("%w: %s has no HTML", ErrInvalidView, v.URI)
	}
	return nil
}

// viewResource returns the resource serving v. Its metadata is on the
// resources/list entry and on the contents that resources/read returns.
func viewResource(v *View) *mcp.ServerResource {
	name := v.Name
	if name == "" {
		name = v.URI
	}
	r := &mcp.Resource{URI: v.URI, Name: name, Title: v.Title, Description: v.Description, MIMEType: MIMEType}
	var meta mcp.Meta
	if v.Meta != nil {
		meta.Data = map[string]any{MetaKey: *v.Meta}
		r.Meta = meta
	}
	uri, html := v.URI, v.HTML
	return &mcp.ServerResource{
		Resource: r,
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			c := mcp.NewTextResourceContents(uri, MIMEType, html)
			c.Meta = meta
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
		},
	}
}
