// Command extension runs a server and a client of the "com.example/notes"
// extension (package notes) in one process: a third-party extension
// written on the SDK's public API, with its own methods and capability
// settings. The client adds notes and lists them; a client that did not
// declare the extension may list but not add.
//
//	go run ./examples/extension [-protocol 2025-11-25]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/gomcp/sdk/examples/extension/notes"
	"github.com/gomcp/sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol version the clients pin (default: the newest both sides speak)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *protocol); err != nil {
		log.Fatal(err)
	}
}

// connect connects client to server in memory.
func connect(ctx context.Context, server *mcp.Server, client *mcp.Client) (*mcp.ClientSession, error) {
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		return nil, err
	}
	return client.Connect(ctx, ct)
}

func run(ctx context.Context, out io.Writer, protocol string) error {
	// docs:region run
	server := notes.EnableServer(mcp.NewServer("notes-server", "v1.0.0", nil), notes.Settings{MaxNotes: 2})

	client := mcp.NewClient("notes-client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: protocol})
	notes.EnableClient(client, func(ctx context.Context, p *notes.AddedParams) {
		fmt.Fprintf(out, "added %q, the server holds %d\n", p.Text, p.Count)
	})
	cs, err := connect(ctx, server, client)
	if err != nil {
		return err
	}
	defer cs.Close()
	settings, err := notes.ServerSettings(cs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "server keeps %d notes\n", settings.MaxNotes)
	for _, text := range []string{"buy milk", "call Ada", "water plants"} {
		if _, err := notes.Add(ctx, cs, text); err != nil {
			return err
		}
	}
	list, err := notes.List(ctx, cs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "notes: %q\n", list)

	// A client that did not declare the extension may list, not add.
	other, err := connect(ctx, server, mcp.NewClient("other", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: protocol}))
	if err != nil {
		return err
	}
	defer other.Close()
	_, err = notes.Add(ctx, other, "from a stranger")
	var rpcErr *mcp.JSONRPCError
	if !errors.As(err, &rpcErr) {
		return fmt.Errorf("add without the extension: got %v, want a JSON-RPC error", err)
	}
	fmt.Fprintf(out, "without the extension: code %d: %s\n", rpcErr.Code, rpcErr.Message)
	// docs:endregion
	return nil
}
