package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name"`
}

func TestClient(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		server := mcp.NewServer("greeter", "v1.0.0", nil)
		if legacy {
			server = mcp.NewServer("greeter", "v1.0.0", &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20251125}})
		}
		server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
			auth := mcp.HTTPRequestFromContext(ctx).Header.Get("Authorization")
			return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name + " (" + auth + ")")}, nil
		}))
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		ts := httptest.NewServer(handler)

		var out strings.Builder
		err := run(context.Background(), &out, ts.URL, "s3cret", "greet", json.RawMessage(`{"name":"you"}`))
		handler.Close()
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		version := mcp.Version20260728
		if legacy {
			version = mcp.Version20251125
		}
		want := "connected to greeter v1.0.0 (protocol " + version + ")\ntool greet: say hi\nHi you (Bearer s3cret)\n"
		if out.String() != want {
			t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
		}
	}
}

func TestToolError(t *testing.T) {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
		return nil, nil
	}))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(handler)
	defer ts.Close()
	defer handler.Close()
	var out strings.Builder
	// A missing required argument is a tool error, not a failed call.
	err := run(context.Background(), &out, ts.URL, "", "greet", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(out.String(), "name") {
		t.Errorf("err = %v, output %q", err, out.String())
	}
}
