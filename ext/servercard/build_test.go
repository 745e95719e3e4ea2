package servercard

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// FromServer takes the card's identity from the server's Implementation,
// the namespace and endpoints from the options, and fills each remote's
// protocol versions from what the server serves on its transport.
func TestFromServer(t *testing.T) {
	c := weatherCard(t)
	impl := weatherServer().Implementation()
	checks := []struct {
		field, got, want string
	}{
		{"$schema", c.Schema, SchemaURL},
		{"name", c.Name, "com.example/" + impl.Name},
		{"version", c.Version, impl.Version},
		{"description", c.Description, impl.Description},
		{"title", c.Title, impl.Title},
		{"websiteUrl", c.WebsiteURL, impl.WebsiteURL},
		{"icon", c.Icons[0].Src, impl.Icons[0].Src},
		{"repository", c.Repository.URL, "https://github.com/example/weather"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.field, ch.got, ch.want)
		}
	}
	if got, want := c.Remotes[0].SupportedProtocolVersions, mcp.SupportedVersions(); !slices.Equal(got, want) {
		t.Errorf("streamable-http versions %v, want %v", got, want)
	}
	if got := c.Remotes[1].SupportedProtocolVersions; slices.Contains(got, mcp.Version20260728) || !slices.Contains(got, mcp.Version20241105) {
		t.Errorf("sse versions %v: want the session-based revisions only", got)
	}
}

// A server restricted to some versions gets a card that lists only
// those; a server whose name already has a namespace keeps it.
func TestFromServerFollowsTheServer(t *testing.T) {
	s := mcp.NewServer("org.example/notes", "2.0.0", &mcp.ServerOptions{
		Description:      "Notes",
		ProtocolVersions: []string{mcp.Version20260728, mcp.Version20251125},
	})
	c, err := FromServer(s, &Options{Remotes: []Remote{{Type: StreamableHTTP, URL: "https://notes.example.org/mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "org.example/notes" {
		t.Errorf("name %q", c.Name)
	}
	if got := c.Remotes[0].SupportedProtocolVersions; !slices.Equal(got, []string{mcp.Version20260728, mcp.Version20251125}) {
		t.Errorf("versions %v", got)
	}
}

// FromServer refuses, with an error that says what to set, a card that
// would be invalid or would publish what must stay private.
func TestFromServerRefuses(t *testing.T) {
	described := &mcp.ServerOptions{Description: "Forecasts"}
	tests := []struct {
		name   string
		server *mcp.Server
		opts   *Options
		says   string
	}{
		{"no server", nil, nil, "needs a server"},
		{"no namespace", mcp.NewServer("weather", "1.0.0", described), nil, "Options.Namespace"},
		{"no description", mcp.NewServer("weather", "1.0.0", nil), &Options{Namespace: "com.example"}, "ServerOptions.Description"},
		{"description too long", mcp.NewServer("weather", "1.0.0", &mcp.ServerOptions{Description: strings.Repeat("d", 101)}), &Options{Namespace: "com.example"}, "description"},
		{"bad namespace", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com example"}, "name"},
		{"version range", mcp.NewServer("weather", "^1.0.0", described), &Options{Namespace: "com.example"}, "version"},
		{"unknown transport", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: "websocket", URL: "https://e.com"}}}, "type"},
		{"relative remote url", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "/mcp"}}}, "url"},
		{"overstated versions", mcp.NewServer("weather", "1.0.0", &mcp.ServerOptions{Description: "d", ProtocolVersions: []string{mcp.Version20251125}}),
			&Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "https://e.com/mcp", SupportedProtocolVersions: []string{mcp.Version20260728}}}}, "does not serve"},
		{"sse for a server of 2026-07-28 only", mcp.NewServer("weather", "1.0.0", &mcp.ServerOptions{Description: "d", ProtocolVersions: []string{mcp.Version20260728}}),
			&Options{Namespace: "com.example", Remotes: []Remote{{Type: SSE, URL: "https://e.com/sse"}}}, "no protocol version over sse"},
		{"plain http to a public host", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "http://mcp.example.com/mcp"}}}, "AllowHTTP"},
		{"secret filled", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "https://e.com/mcp",
			Headers: []Header{{Name: "X-Api-Key", Input: Input{IsSecret: true, Value: "sk-live-123"}}}}}}, "secret"},
		{"credential header literal", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "https://e.com/mcp",
			Headers: []Header{{Name: "Authorization", Input: Input{Value: "Bearer abc"}}}}}}, "credential"},
		{"credentials in the url", mcp.NewServer("weather", "1.0.0", described), &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "https://u:p@e.com/mcp"}}}, "credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromServer(tt.server, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want one mentioning %q", err, tt.says)
			}
			if _, herr := NewHandler(tt.server, tt.opts); herr == nil {
				t.Fatal("NewHandler accepted what FromServer refused")
			}
		})
	}
	// Loopback http is for development and needs no option; AllowHTTP
	// permits other hosts.
	for _, opts := range []*Options{
		{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "http://127.0.0.1:3001/mcp"}}},
		{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: "http://devbox:3001/mcp"}}, AllowHTTP: true},
	} {
		if _, err := FromServer(mcp.NewServer("weather", "1.0.0", described), opts); err != nil {
			t.Errorf("%s: %v", opts.Remotes[0].URL, err)
		}
	}
}

// The card is a copy: changing the options afterwards changes nothing.
func TestFromServerCopies(t *testing.T) {
	opts := weatherOptions()
	c, err := FromServer(weatherServer(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Remotes[0].Headers[0].Name = "changed"
	opts.Repository.URL = "changed"
	if c.Remotes[0].Headers[0].Name != "Authorization" || c.Repository.URL == "changed" {
		t.Fatal("the card shares memory with the options")
	}
}

// Validate reports a hand-made card's problems, wrapping ErrInvalid.
func TestCardValidate(t *testing.T) {
	c := weatherCard(t)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Schema = "https://static.modelcontextprotocol.io/schemas/v1/server.schema.json"
	if err := c.Validate(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if _, err := NewCardHandler(c); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NewCardHandler: err = %v, want ErrInvalid", err)
	}
}
