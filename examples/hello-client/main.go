// Command hello-client starts the hello example server over stdio, lists its
// tools, calls "greet" and prints the result.
//
//	go run ./examples/hello-client [-server "command to run"] [-name you]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	server := flag.String("server", "go run github.com/gomcp/sdk/examples/hello", "command that runs the server")
	name := flag.String("name", "gopher", "who to greet")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, strings.Fields(*server), *name); err != nil {
		log.Fatal(err)
	}
}

// run starts the server command, lists its tools, calls greet with name and
// prints what happens to w.
func run(ctx context.Context, w io.Writer, command []string, name string) error {
	if len(command) == 0 {
		return errors.New("no server command")
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr

	client := mcp.NewClient("hello-client", "v1.0.0", nil)
	session, err := client.Connect(ctx, mcp.NewCommandTransport(cmd, nil))
	if err != nil {
		return err
	}
	defer session.Close()
	fmt.Fprintf(w, "connected to %s %s (protocol %s)\n", session.ServerInfo().Name, session.ServerInfo().Version, session.ProtocolVersion())

	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "tool %s: %s\n", tool.Name, tool.Description)
	}
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": name}, nil)
	if err != nil {
		return err
	}
	for _, c := range res.Content {
		fmt.Fprintln(w, c.Text)
	}
	if res.IsError {
		return errors.New("greet reported an error")
	}
	return nil
}
