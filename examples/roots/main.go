// Command roots shows a tool that reads the client's roots: the directories
// the user lets the server work in. It runs a server and a client in one
// process; the client adds a root after the first call, and the server
// sees the new list.
//
//	go run ./examples/roots [-protocol 2025-11-25]
package main

//lint:file-ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it: this example is about it

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol version the client pins (default: the newest both sides speak)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *protocol); err != nil {
		log.Fatal(err)
	}
}

// docs:region server
func listWorkspaces(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
	var uris []string
	for root, err := range ss.Roots(ctx) {
		if err != nil {
			return nil, err
		}
		uris = append(uris, root.URI)
	}
	return []*mcp.Content{mcp.NewTextContent(strings.Join(uris, " "))}, nil
}

// docs:endregion

// run connects a client with roots to the server and calls the tool before
// and after adding a root, printing the results to w.
func run(ctx context.Context, w io.Writer, protocol string) error {
	// docs:region handler
	// Before 2026-07-28 the server caches the client's roots and hears of
	// changes by a notification, which arrives when it arrives.
	changed := make(chan struct{}, 1)
	server := mcp.NewServer("workspace", "v1.0.0", &mcp.ServerOptions{
		RootsListChangedHandler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.RootsListChangedParams) {
			select { // never block: this runs on the connection's reader
			case changed <- struct{}{}:
			default:
			}
		},
	})
	// docs:endregion
	server.AddTools(mcp.NewTool("list_workspaces", "Lists the directories the client shares", listWorkspaces))
	// docs:region client
	client := mcp.NewClient("roots-client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: protocol})
	client.AddRoots(&mcp.Root{URI: "file:///home/ada/project", Name: "project"})
	// docs:endregion
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		return err
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		return err
	}
	defer cs.Close()
	for i := range 2 {
		if i == 1 {
			// docs:region change
			// Connected servers are told that the roots changed.
			client.AddRoots(&mcp.Root{URI: "file:///home/ada/notes", Name: "notes"})
			// docs:endregion
			if cs.ProtocolVersion() != mcp.Version20260728 {
				select { // in 2026-07-28 the server asks on every call
				case <-changed:
				case <-time.After(5 * time.Second):
					return fmt.Errorf("the server did not hear of the new root")
				}
			}
		}
		res, err := cs.CallTool(ctx, "list_workspaces", nil, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", cs.ProtocolVersion(), res.Content[0].Text)
	}
	return nil
}
