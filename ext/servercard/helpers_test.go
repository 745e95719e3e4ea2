package servercard

import (
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// weatherServer is the server the tests describe: every identity field
// set, serving every protocol version.
func weatherServer() *mcp.Server {
	return mcp.NewServer("weather", "1.4.2", &mcp.ServerOptions{
		Title:       "Weather",
		Description: "Forecasts and current conditions for any city",
		WebsiteURL:  "https://example.com/weather",
		Icons:       []mcp.Icon{{Src: "https://example.com/weather.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
	})
}

// weatherOptions serve weatherServer over streamable HTTP and HTTP+SSE,
// with a bearer token the user supplies.
func weatherOptions() *Options {
	return &Options{
		Namespace: "com.example",
		Remotes: []Remote{
			{
				Type: StreamableHTTP,
				URL:  "https://mcp.example.com/mcp",
				Headers: []Header{{
					Name:      "Authorization",
					Input:     Input{Description: "Your API token", IsRequired: true, Value: "Bearer {token}"},
					Variables: map[string]Input{"token": {IsSecret: true, IsRequired: true, Description: "API token from example.com/account"}},
				}},
			},
			{Type: SSE, URL: "https://mcp.example.com/sse"},
		},
		Repository: &Repository{URL: "https://github.com/example/weather", Source: "github"},
	}
}

// weatherCard returns the card of weatherServer with weatherOptions.
func weatherCard(t *testing.T) *Card {
	t.Helper()
	c, err := FromServer(weatherServer(), weatherOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// weatherHandler returns the handler of weatherCard.
func weatherHandler(t *testing.T) *Handler {
	t.Helper()
	h, err := NewHandler(weatherServer(), weatherOptions())
	if err != nil {
		t.Fatal(err)
	}
	return h
}
