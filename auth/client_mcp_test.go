package auth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// protect wraps an MCP handler: requests need a token of as for the
// server's URL, else 401 with the PRM URL, which it serves too.
func protect(t *testing.T, as *fakeAS, h http.Handler) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			writeJSON(w, 200, ProtectedResourceMetadata{Resource: srv.URL + "/mcp", AuthorizationServers: []string{as.issuer}})
			return
		}
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if i := as.lookup(tok); !ok || i == nil || i.resource != srv.URL+"/mcp" {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer resource_metadata=%q", srv.URL+"/.well-known/oauth-protected-resource/mcp"))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newEchoServer() *mcp.Server {
	s := mcp.NewServer("echo", "v1", nil)
	s.AddTools(mcp.NewTool("echo", "echoes", func(ctx context.Context, ss *mcp.ServerSession, args struct {
		Text string `json:"text"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent(args.Text)}, nil
	}))
	return s
}

// TestWithMCPClientTransports shows the Transport used unchanged through
// the HTTPClient option of both HTTP client transports.
func TestWithMCPClientTransports(t *testing.T) {
	for _, kind := range []string{"streamable", "sse"} {
		t.Run(kind, func(t *testing.T) {
			as := newFakeAS(t, "")
			server := newEchoServer()
			var h http.Handler
			if kind == "streamable" {
				h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
			} else {
				h = mcp.NewSSEHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
			}
			srv := protect(t, as, h)
			calls := 0
			tr, err := NewTransport(srv.URL+"/mcp", &TransportOptions{
				Grant: &AuthorizationCodeGrant{RedirectURL: "http://127.0.0.1:1/cb", Authorize: headless(&calls, new(sync.Mutex))},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			hc := &http.Client{Transport: tr}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var transport mcp.Transport
			if kind == "streamable" {
				transport = mcp.NewStreamableClientTransport(srv.URL+"/mcp", &mcp.StreamableClientTransportOptions{HTTPClient: hc})
			} else {
				transport, err = mcp.NewSSEClientTransport(srv.URL+"/mcp", &mcp.SSEClientTransportOptions{HTTPClient: hc})
				if err != nil {
					t.Fatal(err)
				}
			}
			cs, err := mcp.NewClient("c", "v1", nil).Connect(ctx, transport)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, "echo", map[string]any{"text": "hi"}, nil)
			if err != nil || res.IsError || res.Content[0].Text != "hi" {
				t.Fatalf("CallTool = %+v, %v", res, err)
			}
			if calls != 1 {
				t.Errorf("authorizations = %d, want 1", calls)
			}
		})
	}
}
