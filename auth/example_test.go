package auth_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// Protect an MCP server with access tokens: requests without a valid token
// get 401 with a challenge that tells the client where to find the
// authorization server, and tools read the caller's identity from their
// context. Here a fixed-token verifier stands in for a JWTVerifier.
func ExampleRequireBearerToken() {
	server := mcp.NewServer("greeter", "v1", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			ti := auth.TokenInfoFromContext(ctx)
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent("you are " + ti.Subject)}}, nil
		},
	})
	verifier := auth.TokenVerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
		if token != "secret-token" {
			return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{Subject: "alice", Scopes: []string{"profile:read"}}, nil
	})
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
		Scopes:              auth.ScopeRules{Tools: map[string][]string{"whoami": {"profile:read"}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(protect(handler))
	defer ts.Close()
	defer handler.Close()

	resp, err := http.Post(ts.URL, "application/json", nil)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))

	transport := mcp.NewStreamableClientTransport(ts.URL, &mcp.StreamableClientTransportOptions{
		Header: http.Header{"Authorization": {"Bearer secret-token"}},
	})
	session, err := mcp.NewClient("client", "v1", nil).Connect(context.Background(), transport)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(context.Background(), "whoami", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
	// Output:
	// 401 Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// you are alice
}

// Verify JWT access tokens issued by an authorization server for this
// server, and serve the Protected Resource Metadata that points clients
// to it.
func ExampleNewJWTVerifier() {
	const resource = "https://mcp.example.com/mcp"
	const issuer = "https://auth.example.com"
	verifier, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{Issuer: issuer, Audience: resource})
	if err != nil {
		log.Fatal(err)
	}
	prmURL, _ := auth.ProtectedResourceMetadataURL(resource)
	prmPath, _ := auth.ProtectedResourceMetadataPath(resource)
	prm, err := auth.ProtectedResourceMetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{issuer},
		ScopesSupported:      []string{"mcp:basic"},
	})
	if err != nil {
		log.Fatal(err)
	}
	server := mcp.NewServer("greeter", "v1", nil)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{AllowedHosts: []string{"mcp.example.com"}})
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: prmURL,
		Resource:            resource,
		Scopes:              auth.ScopeRules{Endpoint: []string{"mcp:basic"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", protect(handler))
	mux.Handle(prmPath, prm)
	fmt.Println(prmPath)
	// Output: /.well-known/oauth-protected-resource/mcp
}

func ExampleProtectedResourceMetadataURL() {
	u, _ := auth.ProtectedResourceMetadataURL("https://example.com/public/mcp")
	fmt.Println(u)
	// Output: https://example.com/.well-known/oauth-protected-resource/public/mcp
}

// Check opaque tokens with the authorization server's introspection
// endpoint (RFC 7662); answers are cached until the token expires, at most
// a minute by default.
func ExampleNewIntrospectionVerifier() {
	verifier, err := auth.NewIntrospectionVerifier(&auth.IntrospectionVerifierOptions{
		Issuer:       "https://auth.example.com", // its metadata gives introspection_endpoint
		Audience:     "https://mcp.example.com/mcp",
		ClientID:     "mcp-server",
		ClientSecret: "from-your-secret-store",
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{Resource: "https://mcp.example.com/mcp"}); err != nil {
		log.Fatal(err)
	}
}

// Accept DPoP-bound tokens (RFC 9449) besides bearer tokens, with server
// nonces.
func ExampleDPoPOptions() {
	verifier, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{
		Issuer:   "https://auth.example.com",
		Audience: "https://mcp.example.com/mcp",
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		Resource: "https://mcp.example.com/mcp", // the htu proofs must name
		DPoP:     &auth.DPoPOptions{Nonce: auth.NewDPoPNonces(time.Minute)},
	}); err != nil {
		log.Fatal(err)
	}
}
