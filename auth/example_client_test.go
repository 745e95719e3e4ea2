package auth_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// A command-line program that acts for its user: the authorization URL is
// printed, the browser comes back to 127.0.0.1, and tokens are kept in a
// file between runs.
func ExampleNewTransport() {
	ctx := context.Background()
	// docs:region cli
	redirect, err := auth.NewLoopbackRedirect(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer redirect.Close()
	tr, err := auth.NewTransport("https://mcp.example.com/mcp", &auth.TransportOptions{
		Grant: &auth.AuthorizationCodeGrant{
			RedirectURL: redirect.RedirectURL(),
			Authorize:   redirect.Authorize,
		},
		ClientMetadataURL: "https://app.example.com/oauth/client-metadata.json",
		ClientMetadata:    &auth.ClientMetadata{ClientName: "Example CLI"},
		OfflineAccess:     true,
		Store:             auth.NewFileTokenStore(os.ExpandEnv("$HOME/.example-cli-tokens.json")),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer tr.Close()
	transport := mcp.NewStreamableClientTransport("https://mcp.example.com/mcp",
		&mcp.StreamableClientTransportOptions{HTTPClient: &http.Client{Transport: tr}})
	cs, err := mcp.NewClient("example-cli", "v1.0.0", nil).Connect(ctx, transport)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	// docs:endregion
}

// A service acting on its own behalf, authenticated with a private key
// (private_key_jwt) it was registered with.
func ExampleClientCredentialsGrant() {
	// docs:region service
	pemBytes, err := os.ReadFile("/run/secrets/mcp-client-key.pem")
	if err != nil {
		log.Fatal(err)
	}
	key, err := auth.ParsePrivateKeyPEM(pemBytes)
	if err != nil {
		log.Fatal(err)
	}
	tr, err := auth.NewTransport("https://mcp.example.com/mcp", &auth.TransportOptions{
		Grant: auth.ClientCredentialsGrant{},
		Client: &auth.PreRegisteredClient{
			ClientID:   "reporting-service",
			PrivateKey: key,
			Issuer:     "https://auth.example.com",
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = &http.Client{Transport: tr} // give it to an MCP client transport
	// docs:endregion
}

func ExampleParseWWWAuthenticate() {
	cs, err := auth.ParseWWWAuthenticate([]string{
		`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cs[0].Scheme, cs[0].Param("error"), cs[0].Scopes())
	fmt.Println(cs[0].Param("resource_metadata"))
	// Output:
	// Bearer insufficient_scope [files:read files:write]
	// https://mcp.example.com/.well-known/oauth-protected-resource/mcp
}

func ExampleAuthorizationServerMetadataURLs() {
	urls, _ := auth.AuthorizationServerMetadataURLs("https://auth.example.com/tenant1")
	for _, u := range urls {
		fmt.Println(u)
	}
	// Output:
	// https://auth.example.com/.well-known/oauth-authorization-server/tenant1
	// https://auth.example.com/.well-known/openid-configuration/tenant1
	// https://auth.example.com/tenant1/.well-known/openid-configuration
}
