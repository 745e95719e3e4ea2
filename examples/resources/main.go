// Command resources is an MCP server of notes: a fixed resource listing
// them, a resource template reading one, and a tool that writes a note and
// tells subscribed clients that the resources changed.
//
//	go run ./examples/resources            # stdio
//	go run ./examples/resources -http localhost:8080
package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(func() *mcp.Server { return newNotes().server }) }

// notes is the server's state: notes by name.
type notes struct {
	mu     sync.Mutex
	byName map[string]string
	server *mcp.Server
}

func newNotes() *notes {
	n := &notes{byName: map[string]string{"welcome": "Hello from the notes server."}}
	// docs:region subscribe
	n.server = mcp.NewServer("notes", "v1.0.0", &mcp.ServerOptions{
		// Setting both handlers declares resources.subscribe. They are
		// where a server would start and stop watching a resource; this
		// one learns of every change itself, so it has nothing to do.
		SubscribeHandler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.SubscribeParams) error {
			return nil
		},
		UnsubscribeHandler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.UnsubscribeParams) error {
			return nil
		},
	})
	// docs:endregion
	// docs:region resources
	n.server.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "notes://index", Name: "index", MIMEType: "text/plain"},
		Handler:  n.readIndex,
	})
	n.server.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: "notes://{name}", Name: "note", MIMEType: "text/plain"},
		Handler:  n.readNote,
	})
	// docs:endregion
	n.server.AddTools(mcp.NewTool("write_note", "Writes a note", n.write))
	return n
}

// docs:region read
func (n *notes) readIndex(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range n.byName {
			if !yield(name) {
				return
			}
		}
	})
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: strings.Join(names, "\n")}}}, nil
}

func (n *notes) readNote(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	name := mcp.ResourceTemplateValues(ctx).Get("name")
	n.mu.Lock()
	text, ok := n.byName[name]
	n.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("note %q: %w", name, mcp.ErrResourceNotFound)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: text}}}, nil
}

// docs:endregion

type writeArgs struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// docs:region updated
func (n *notes) write(ctx context.Context, ss *mcp.ServerSession, in writeArgs) ([]*mcp.Content, error) {
	n.mu.Lock()
	n.byName[in.Name] = in.Text
	n.mu.Unlock()
	// Subscribers of either URI hear of the change: legacy sessions that
	// called resources/subscribe, and 2026-07-28 listen streams.
	for _, uri := range []string{"notes://" + in.Name, "notes://index"} {
		if err := n.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedParams{URI: uri}); err != nil {
			return nil, err
		}
	}
	return []*mcp.Content{mcp.NewTextContent("saved " + in.Name)}, nil
}

// docs:endregion
