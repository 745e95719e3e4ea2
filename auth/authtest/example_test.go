package authtest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/authtest"
	"github.com/gomcp/sdk/mcp"
)

// Test a protected MCP server with tokens of chosen subject, scopes and
// expiry: the test issuer publishes its metadata and key, as a real
// authorization server does, and the verifier finds them from its URL.
func Example() {
	// docs:region authtest
	issuer := authtest.NewIssuer()
	defer issuer.Close()

	server := mcp.NewServer("greeter", "v1", nil)
	server.AddTools(mcp.NewTool("whoami", "who the token speaks for", whoami))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	defer handler.Close()
	ts := httptest.NewServer(nil) // its URL is the resource the tokens are for
	defer ts.Close()
	resource := ts.URL + "/mcp"

	verifier, err := issuer.Verifier(resource)
	if err != nil {
		log.Fatal(err)
	}
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		Resource: resource,
		Scopes:   auth.ScopeRules{Tools: map[string][]string{"whoami": {"profile:read"}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	ts.Config.Handler = protect(handler)

	call := func(token string) {
		tr := mcp.NewStreamableClientTransport(resource, &mcp.StreamableClientTransportOptions{
			Header: http.Header{"Authorization": {"Bearer " + token}},
		})
		cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), tr)
		if err != nil {
			fmt.Println("connect:", err)
			return
		}
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), "whoami", nil, nil)
		if err != nil {
			fmt.Println("whoami refused")
			return
		}
		fmt.Println(res.Content[0].Text)
	}
	call(issuer.Token(authtest.Claims{Subject: "alice", Audience: resource, Scopes: []string{"profile:read"}}))
	call(issuer.Token(authtest.Claims{Subject: "bob", Audience: resource})) // lacks profile:read
	// docs:endregion

	// Output:
	// alice
	// whoami refused
}

type noArgs struct{}

func whoami(ctx context.Context, ss *mcp.ServerSession, _ noArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent(auth.TokenInfoFromContext(ctx).Subject)}, nil
}
