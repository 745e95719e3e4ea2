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
	"context"
	"embed"
	"errors"
	"flag"
	"io/fs"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

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
	cat, err := skills.NewCatalog(root, nil)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer("skills-example", "v1.0.0", skills.EnableServer(nil, &skills.Settings{DirectoryRead: true}))
	skills.AddCatalog(s, cat, &skills.ServeOptions{DirectoryRead: true})
	return s, nil
}

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	server, err := newServer()
	if err != nil {
		log.Fatal(err)
	}
	if *httpAddr != "" {
		if err := serveHTTP(ctx, *httpAddr, server); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := server.Run(ctx, mcp.NewStdIOTransport()); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

// serveHTTP serves server over streamable HTTP at http://addr/mcp until ctx
// is done.
func serveHTTP(ctx context.Context, addr string, server *mcp.Server) error {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		handler.Close() // ends open streams, so Shutdown need not wait for them
		srv.Shutdown(shutdown)
	}()
	log.Printf("skills: serving MCP at http://%s/mcp", addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
