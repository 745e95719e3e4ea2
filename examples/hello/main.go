// Command hello is the greeter MCP server: one tool, "greet", that answers
// "Hi <name>". It serves MCP over stdin and stdout, and exits 0 when its
// input closes; with -http it serves streamable HTTP at /mcp instead, until
// interrupted.
//
//	go run ./examples/hello
//	go run ./examples/hello -http localhost:8080
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *httpAddr != "" {
		if err := serveHTTP(ctx, *httpAddr, newServer()); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := newServer().Run(ctx, mcp.NewStdIOTransport()); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

// serveHTTP serves server over streamable HTTP at http://addr/mcp until ctx
// is done. The handler accepts only localhost Host headers by default.
func serveHTTP(ctx context.Context, addr string, server *mcp.Server) error {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	// No WriteTimeout: it would cut SSE streams; the handler bounds each
	// write itself.
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// The handler first: calls in progress finish, then its streams
		// end, which srv.Shutdown would otherwise wait for.
		if err := handler.Shutdown(shutdown); err != nil {
			log.Printf("hello: MCP handler shutdown: %v", err)
		}
		if err := srv.Shutdown(shutdown); err != nil {
			log.Printf("hello: HTTP server shutdown: %v", err)
		}
	}()
	log.Printf("hello: serving MCP at http://%s/mcp", addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func newServer() *mcp.Server {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", greet,
		mcp.Input(mcp.Property("name", mcp.Description("who to greet")))))
	return server
}

// greetArgs are the arguments of greet; the input schema is inferred from
// them, and arguments are validated against it before greet runs.
type greetArgs struct {
	Name string `json:"name"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, args greetArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent("Hi " + args.Name)}, nil
}
