// Package serve runs the example servers the way every example does: over
// stdin and stdout by default, exiting 0 when the input closes, or over
// streamable HTTP at /mcp with -http ADDR, until interrupted.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// Main parses the -http flag and serves the server newServer returns.
// It exits the process with status 1 on failure.
func Main(newServer func() *mcp.Server) {
	addr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *addr != "" {
		server := newServer()
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		err = HTTP(ctx, *addr, handler)
	} else {
		// docs:region stdio
		// Run returns nil when the client closes stdin; cancelling ctx
		// (here on SIGINT or SIGTERM) stops it too.
		err = newServer().Run(ctx, mcp.NewStdIOTransport())
		// docs:endregion
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

// HTTP serves handler at http://addr/mcp until ctx is done, then shuts the
// handler down (calls in progress finish, open streams end) and the HTTP
// server after it.
func HTTP(ctx context.Context, addr string, handler *mcp.StreamableHTTPHandler) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := &http.Server{
		Addr:              addr,
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// The handler first: calls in progress finish, then its streams
		// end, which srv.Shutdown would otherwise wait for.
		_ = handler.Shutdown(shutdown)
		_ = srv.Shutdown(shutdown)
	}()
	fmt.Fprintf(os.Stderr, "serving MCP at http://%s/mcp\n", addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
