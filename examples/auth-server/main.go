// Command auth-server is the greeter MCP server protected by OAuth 2.1: it
// accepts only requests with an access token issued by the authorization
// server given with -issuer for this server (its canonical URL, -resource).
//
// Tool "greet" needs only a valid token; tool "whoami" answers the token's
// subject and needs the scope "profile:read". The server publishes its
// Protected Resource Metadata at /.well-known/oauth-protected-resource/mcp
// (and at the root well-known URL), which tells clients where to get
// tokens. Tokens are accepted as bearer tokens, or bound to a key (DPoP,
// RFC 9449) and presented with a proof of that key.
//
//	go run ./examples/auth-server -http localhost:8080 -issuer https://auth.example.com
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run parses the flags and serves until ctx is done.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("auth-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "localhost:8080", "serve streamable HTTP at this address (path /mcp)")
	issuer := fs.String("issuer", "", "issuer URL of the authorization server; its metadata gives the JWKS (required)")
	resource := fs.String("resource", "", "canonical URL of this server, the audience of its tokens (default http://ADDR/mcp)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *issuer == "" {
		fs.Usage()
		return errors.New("-issuer is required")
	}
	if *resource == "" {
		*resource = "http://" + *addr + "/mcp"
	}
	handler, closeMCP, err := newHandler(&config{issuer: *issuer, resource: *resource})
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: *addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = closeMCP() // ends open streams, so Shutdown need not wait for them
		_ = srv.Shutdown(shutdown)
	}()
	fmt.Fprintf(stderr, "auth-server: serving MCP at %s (tokens from %s)\n", *resource, *issuer)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// config is what newHandler needs.
type config struct {
	issuer   string
	resource string
	// httpClient fetches the issuer's metadata and keys (nil: default).
	httpClient *http.Client
}

// newHandler returns the server's HTTP handler: /mcp behind the bearer
// token middleware, and the Protected Resource Metadata document. The
// returned function closes the MCP handler.
func newHandler(c *config) (http.Handler, func() error, error) {
	resource, err := auth.CanonicalResourceURL(c.resource)
	if err != nil {
		return nil, nil, err
	}
	u, _ := url.Parse(resource)
	// docs:region protect
	verifier, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{Issuer: c.issuer, Audience: resource, HTTPClient: c.httpClient})
	if err != nil {
		return nil, nil, err
	}
	prmURL, err := auth.ProtectedResourceMetadataURL(resource)
	if err != nil {
		return nil, nil, err
	}
	prmPath, _ := auth.ProtectedResourceMetadataPath(resource)
	prm, err := auth.ProtectedResourceMetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{c.issuer},
		ScopesSupported:      []string{"profile:read"},
		ResourceName:         "Greeter",
	})
	if err != nil {
		return nil, nil, err
	}
	server := newServer()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{AllowedHosts: []string{u.Hostname()}})
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: prmURL,
		Resource:            resource, // also the htu that DPoP proofs must name
		Scopes:              auth.ScopeRules{Tools: map[string][]string{"whoami": {"profile:read"}}},
		// Accept DPoP-bound tokens with their proofs besides bearer tokens,
		// as authorization servers that bind tokens to a key issue them.
		DPoP: &auth.DPoPOptions{},
	})
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(u.EscapedPath(), protect(mcpHandler))
	mux.Handle(prmPath, prm)
	if prmPath != "/.well-known/oauth-protected-resource" {
		mux.Handle("/.well-known/oauth-protected-resource", prm)
	}
	// docs:endregion
	return mux, mcpHandler.Close, nil
}

// newServer returns the greeter with its two tools.
func newServer() *mcp.Server {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(
		mcp.NewTool("greet", "say hi", greet, mcp.Input(mcp.Property("name", mcp.Description("who to greet")))),
		mcp.NewTool("whoami", "tell who the access token speaks for (needs scope profile:read)", whoami),
	)
	return server
}

type greetArgs struct {
	Name string `json:"name"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, args greetArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent("Hi " + args.Name)}, nil
}

type noArgs struct{}

// docs:region whoami
func whoami(ctx context.Context, ss *mcp.ServerSession, _ noArgs) ([]*mcp.Content, error) {
	ti := auth.TokenInfoFromContext(ctx)
	if ti == nil {
		return nil, errors.New("no access token") // unreachable behind the middleware
	}
	return []*mcp.Content{mcp.NewTextContent(ti.Subject)}, nil
}

// docs:endregion
