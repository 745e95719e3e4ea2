// Command skills is an MCP server that serves a catalog of Agent Skills
// (the "io.modelcontextprotocol/skills" extension) embedded in the binary:
// skills/list and skills/get describe them, resources/read serves their
// files, and resources/directory/read lists their folders. It serves MCP
// over stdin and stdout, and exits 0 when its input closes; with -http it
// serves streamable HTTP at /mcp instead, until interrupted.
//
//	go run ./examples/skills
//	go run ./examples/skills -http localhost:8080
package main

import (
	"embed"
	"io/fs"
	"log"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/ext/skills"
	"github.com/gomcp/sdk/mcp"
)

//go:embed catalog
var catalogFS embed.FS

// newServer returns the server, with Skills turned on and the embedded
// catalog served.
func newServer() (*mcp.Server, error) {
	root, err := fs.Sub(catalogFS, "catalog")
	if err != nil {
		return nil, err
	}
	// docs:region server
	cat, err := skills.NewCatalog(root, nil)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer("skills-example", "v1.0.0", nil)
	skills.AddCatalog(s, cat, &skills.ServeOptions{DirectoryRead: true})
	// docs:endregion
	return s, nil
}

func main() {
	serve.Main(func() *mcp.Server {
		server, err := newServer()
		if err != nil {
			log.Fatal(err) // the embedded catalog is part of the program
		}
		return server
	})
}
