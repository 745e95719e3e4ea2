package mcp_test

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/gomcp/sdk/mcp"
)

// A client without credentials learns from the error of Connect that the
// server wants a token, and where to read how to get one.
func ExampleHTTPStatusError() {
	ctx := context.Background()
	transport := mcp.NewStreamableClientTransport("https://mcp.example.com/mcp", nil)
	_, err := mcp.NewClient("my-client", "v1.0.0", nil).Connect(ctx, transport)
	// docs:region refused
	var herr *mcp.HTTPStatusError
	if errors.As(err, &herr) && herr.StatusCode == http.StatusUnauthorized {
		log.Printf("the server wants a token: %v", herr.WWWAuthenticate)
	}
	// docs:endregion
}
