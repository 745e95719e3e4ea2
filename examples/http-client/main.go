// Command http-client connects to an MCP server over streamable HTTP, lists
// its tools and calls one. It speaks 2026-07-28 and falls back to the
// session of 2025-11-25 with older servers.
//
//	go run ./examples/hello -http localhost:8080 &
//	go run ./examples/http-client -url http://localhost:8080/mcp -tool greet -args '{"name":"you"}'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	url := flag.String("url", "http://localhost:8080/mcp", "the server's MCP endpoint")
	tool := flag.String("tool", "", "tool to call after listing them (none if empty)")
	args := flag.String("args", "{}", "the tool's arguments, a JSON object")
	token := flag.String("token", os.Getenv("MCP_TOKEN"), "bearer token to send, if any (default $MCP_TOKEN)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, *url, *token, *tool, json.RawMessage(*args)); err != nil {
		log.Fatal(err)
	}
}

// run lists the tools of the server at url and calls tool with args,
// printing to w. It fails if the tool reports an error.
func run(ctx context.Context, w io.Writer, url, token, tool string, args json.RawMessage) error {
	// docs:region connect
	opts := &mcp.StreamableClientTransportOptions{
		// No Timeout on the client: it would also cut long streams. Bound
		// each call with its context instead.
		HTTPClient: &http.Client{Transport: http.DefaultTransport},
	}
	if token != "" {
		opts.Header = http.Header{"Authorization": {"Bearer " + token}}
	}
	client := mcp.NewClient("http-client", "v1.0.0", nil)
	session, err := client.Connect(ctx, mcp.NewStreamableClientTransport(url, opts))
	if err != nil {
		return err
	}
	defer session.Close()
	// docs:endregion
	fmt.Fprintf(w, "connected to %s %s (protocol %s)\n", session.ServerInfo().Name, session.ServerInfo().Version, session.ProtocolVersion())
	// docs:region call
	for tool, err := range session.Tools(ctx, nil) { // every page
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "tool %s: %s\n", tool.Name, tool.Description)
	}
	if tool == "" {
		return nil
	}
	res, err := session.CallTool(ctx, tool, args, nil)
	if err != nil {
		return err // the call failed: transport, protocol or unknown tool
	}
	for _, c := range res.Content {
		fmt.Fprintln(w, c.Text)
	}
	if res.IsError {
		return fmt.Errorf("tool %s failed", tool) // the tool ran and reported an error
	}
	// docs:endregion
	return nil
}
