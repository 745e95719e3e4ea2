// Command http-server serves MCP over HTTP: streamable HTTP at /mcp, for
// clients of every protocol version (2026-07-28 requests without sessions,
// and the sessions of 2025-03-26 to 2025-11-25, decided per request), and
// the HTTP+SSE transport of 2024-11-05 at /sse for old clients. Its
// Server Card, which describes both endpoints to clients before they
// connect, is at /mcp/server-card, and an AI Catalog listing it at
// /.well-known/ai-catalog.json.
//
//	go run ./examples/http-server [-http localhost:8080]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomcp/sdk/ext/servercard"
	"github.com/gomcp/sdk/mcp"
)

func main() {
	addr := flag.String("http", "localhost:8080", "address to listen on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr); err != nil {
		log.Fatal(err)
	}
}

func newServer() *mcp.Server {
	// docs:region server
	// Logger receives what cannot be returned to a caller: a panic in a
	// handler (recovered: the caller gets an internal error), failed
	// writes, dropped notifications.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	server := mcp.NewServer("whoami", "v1.0.0", &mcp.ServerOptions{
		Description: "Says what the server knows of the caller",
		Logger:      logger,
	})
	server.AddSessionObserver(func(ss *mcp.ServerSession) func(error) {
		logger.Info("session started", "protocol", ss.ProtocolVersion())
		return func(err error) { logger.Info("session ended", "err", err) }
	})
	// docs:endregion
	// docs:region tool
	server.AddTools(mcp.NewTool("whoami", "Says what the server knows of the caller",
		func(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
			// The HTTP request of a streamable HTTP call reaches every
			// handler, with the values authentication middleware put in
			// its context. Other transports have none.
			agent := "unknown"
			if r := mcp.HTTPRequestFromContext(ctx); r != nil {
				agent = r.UserAgent()
			}
			text := "protocol " + ss.ProtocolVersion() + ", user agent " + agent
			return []*mcp.Content{mcp.NewTextContent(text)}, nil
		}))
	// docs:endregion
	return server
}

// handlers are the HTTP handlers of the server; closing them ends their
// open streams.
type handlers struct {
	streamable *mcp.StreamableHTTPHandler
	sse        *mcp.SSEHTTPHandler
}

// docs:region handlers
func newHandlers(server *mcp.Server) (*handlers, *http.ServeMux) {
	getServer := func(*http.Request) *mcp.Server { return server }
	h := &handlers{
		streamable: mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
			// Defaults are safe: Host must be localhost (DNS-rebinding
			// protection), bodies are limited, idle sessions expire.
			// A server reachable by other names lists them.
			AllowedHosts:   []string{"localhost", "127.0.0.1", "::1", "mcp.example.com"},
			SessionTimeout: 10 * time.Minute,
			// Legacy sessions and listen streams are bounded; beyond
			// the bounds a client gets 503 with Retry-After.
			MaxSessions:      1000,
			MaxListenStreams: 1000,
			// Each write must finish within WriteTimeout, so a client
			// that stops reading is dropped. It replaces
			// http.Server.WriteTimeout, which would cut open streams.
			WriteTimeout: 30 * time.Second,
		}),
		sse: mcp.NewSSEHTTPHandler(getServer, nil),
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h.streamable)
	mux.Handle("/sse", h.sse)
	mux.HandleFunc("GET /stats", h.stats)
	return h, mux
}

// docs:endregion

// docs:region card
// addServerCard serves the server's card at /mcp/server-card and an AI
// Catalog listing it at /.well-known/ai-catalog.json. base is the URL
// clients reach this program at ("http://localhost:8080"): the card
// names the two endpoints the program serves, and takes the rest (name,
// version, description) from the server itself, so the two cannot
// disagree.
func addServerCard(mux *http.ServeMux, server *mcp.Server, base string) error {
	card, err := servercard.FromServer(server, &servercard.Options{
		Namespace: "com.example",
		Remotes: []servercard.Remote{
			{Type: servercard.StreamableHTTP, URL: base + "/mcp"},
			{Type: servercard.SSE, URL: base + "/sse"},
		},
	})
	if err != nil {
		return err
	}
	h, err := servercard.NewCardHandler(card)
	if err != nil {
		return err
	}
	entry, err := servercard.EntryFor(card, servercard.URLFor(base+"/mcp"))
	if err != nil {
		return err
	}
	catalog, err := servercard.NewCatalogHandler(&servercard.Catalog{Entries: []servercard.CatalogEntry{entry}})
	if err != nil {
		return err
	}
	mux.Handle("/mcp"+servercard.Suffix, h)
	mux.Handle(servercard.CatalogPath, catalog)
	return nil
}

// docs:endregion

// publicBase returns the URL clients reach a server listening on addr at:
// addr's host, or localhost when it names every interface (":8080",
// "0.0.0.0:8080"), since a card names one reachable endpoint.
func publicBase(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// docs:region stats
// stats serves the streamable handler's gauges (sessions, listen streams,
// requests in flight) as JSON, for a metrics scraper.
func (h *handlers) stats(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(h.streamable.Stats())
}

// docs:endregion

// Close ends the handlers' sessions and streams at once.
func (h *handlers) Close() error {
	return errors.Join(h.streamable.Close(), h.sse.Close())
}

// Shutdown refuses new sessions and requests, lets calls in progress finish
// until ctx is done, then ends every session.
func (h *handlers) Shutdown(ctx context.Context) error {
	return errors.Join(h.streamable.Shutdown(ctx), h.sse.Shutdown(ctx))
}

// docs:region run
func run(ctx context.Context, addr string) error {
	server := newServer()
	h, mux := newHandlers(server)
	if err := addServerCard(mux, server, publicBase(addr)); err != nil {
		h.Close()
		return err
	}
	srv := &http.Server{
		Addr:              addr,
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// No WriteTimeout: the MCP handlers bound each write themselves.
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Shut the MCP handlers down first: calls in progress finish,
		// then open streams end, which srv.Shutdown would wait for.
		h.Shutdown(shutdown)
		srv.Shutdown(shutdown)
	}()
	log.Printf("serving MCP at http://%s/mcp (and HTTP+SSE at /sse; the server card at /mcp/server-card)", addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// docs:endregion
