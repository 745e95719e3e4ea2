package mcp_test

import (
	"context"
	"fmt"
	"log"
	"os/exec"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// A one-shot command-line client: it asks a stdio server one question and
// ends promptly even if the server lingers after its input closes, since
// the shutdown grace is short.
func ExampleNewCommandTransport() {
	ctx := context.Background()
	transport := mcp.NewCommandTransport(exec.Command("my-mcp-server"),
		&mcp.CommandTransportOptions{TerminateDuration: 100 * time.Millisecond})
	cs, err := mcp.NewClient("my-cli", "v1.0.0", nil).Connect(ctx, transport)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tool.Name)
	}
}
