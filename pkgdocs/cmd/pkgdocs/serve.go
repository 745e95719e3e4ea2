package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/mcpserver"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
)

// serve runs the MCP server: over stdin and stdout until the client closes
// its input, or, with httpAddr, over streamable HTTP at /mcp until ctx ends.
func serve(ctx context.Context, svc *service.Service, httpAddr string, stderr io.Writer) error {
	server := mcpserver.New(svc, buildVersion())
	if httpAddr == "" {
		err := server.Run(ctx, mcp.NewStdIOTransport())
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	defer handler.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ln, err := net.Listen("tcp", httpAddr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pkgdocs: serving MCP at http://%s/mcp\n", ln.Addr())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		handler.Close() // ends open streams, which Shutdown would wait for
		hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
