// Command quickstart is a greeter server and its client in one program: run
// without arguments, it starts itself again as a stdio server ("serve"),
// calls the server's tool and prints the answer.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/gomcp/sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
}

func main() {
	ctx := context.Background()
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		server := mcp.NewServer("greeter", "v1.0.0", nil)
		server.AddTools(mcp.NewTool("greet", "say hi", greet))
		// Serve on stdin and stdout until the client closes them. For HTTP:
		// http.Handle("/mcp", mcp.NewStreamableHTTPHandler(getServer, nil)).
		if err := server.Run(ctx, mcp.NewStdIOTransport()); err != nil {
			log.Fatal(err)
		}
		return
	}

	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient("client", "v1.0.0", nil)
	session, err := client.Connect(ctx, mcp.NewCommandTransport(exec.Command(self, "serve"), nil))
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
}
