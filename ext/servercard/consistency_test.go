package servercard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// A card built from the server agrees with it over a live connection in
// every era; a card that overstates or misnames does not.
func TestContradictions(t *testing.T) {
	server := weatherServer()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	defer mcpHandler.Close()
	ts := httptest.NewServer(mcpHandler)
	defer ts.Close()
	good, err := FromServer(server, &Options{Namespace: "com.example", Remotes: []Remote{{Type: StreamableHTTP, URL: ts.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		cs, err := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: version}).
			Connect(context.Background(), mcp.NewStreamableClientTransport(ts.URL, nil))
		if err != nil {
			t.Fatal(err)
		}
		if got := Contradictions(good, cs); len(got) != 0 {
			t.Errorf("%s: the server's own card: %q", version, got)
		}
		bad := *good
		bad.Name, bad.Version, bad.Title = "com.example/climate", "9.9.9", "Climate"
		bad.Remotes = []Remote{{Type: StreamableHTTP, URL: ts.URL, SupportedProtocolVersions: []string{"2099-01-01"}}}
		got := strings.Join(Contradictions(&bad, cs), "\n")
		for _, want := range []string{"name:", "version:", "title:", "protocol:"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: contradictions %q lack %q", version, got, want)
			}
		}
		cs.Close()
	}
}
