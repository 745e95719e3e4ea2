// Command hello-client starts the hello example server over stdio, lists its
// tools, calls "greet" and prints the result.
//
//	go run ./examples/hello-client [-server "command to run"] [-name you]
package main

import (
	"context"
	"flag"
	"fmt"
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
	fields := strings.Fields(*server)
	cmd := exec.Command(fields[0], fields[1:]...)
	cmd.Stderr = os.Stderr

	client := mcp.NewClient("hello-client", "v1.0.0", nil)
	session, err := client.Connect(ctx, mcp.NewCommandTransport(cmd))
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	fmt.Printf("connected to %s %s (protocol %s)\n", session.ServerInfo().Name, session.ServerInfo().Version, session.ProtocolVersion())

	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("tool %s: %s\n", tool.Name, tool.Description)
	}
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": *name}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Content {
		fmt.Println(c.Text)
	}
	if res.IsError {
		os.Exit(1)
	}
}
