package apps_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/mcp"
)

const clockHTML = `<!doctype html><html><body><p id="t"></p></body></html>`

type clockIn struct {
	Zone string `json:"zone,omitempty" jsonschema:"a time zone name"`
}

// newAppServer returns a server with one app tool, "clock", whose handler
// reports whether the caller renders apps.
func newAppServer(t *testing.T) *mcp.Server {
	t.Helper()
	s := apps.EnableServer(mcp.NewServer("apps-test", "v1.0.0", nil))
	tool := mcp.NewTool("clock", "show a clock", func(ctx context.Context, ss *mcp.ServerSession, in clockIn) ([]*mcp.Content, error) {
		if apps.SessionSupportsApps(ss) {
			return []*mcp.Content{mcp.NewTextContent("rendered")}, nil
		}
		return []*mcp.Content{mcp.NewTextContent("text only")}, nil
	})
	border := true
	err := apps.AddAppTool(s, tool, &apps.View{
		URI: "ui://clock/view.html", Name: "clock-view", HTML: clockHTML,
		Meta: &apps.ResourceMeta{
			CSP:           &apps.CSP{ConnectDomains: []string{"https://api.example.com"}},
			Permissions:   &apps.Permissions{ClipboardWrite: &apps.Permission{}},
			PrefersBorder: &border,
		},
	}, &apps.ToolOptions{Visibility: []apps.Visibility{apps.VisibleToModel, apps.VisibleToApp}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connect connects a client made with opts to s in memory.
// client returns a client that speaks version ("" for the newest).
func client(version string) *mcp.Client {
	return mcp.NewClient("host", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})
}

func connect(t *testing.T, s *mcp.Server, c *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := c.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// asJSON encodes v and decodes it into a generic value, to compare wire
// shapes.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

var eras = []struct {
	name    string
	version string
}{
	{"2025-11-25", "2025-11-25"},
	{"2026-07-28", ""}, // the default client speaks the newest revision
}

func TestAppToolOnTheWire(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connect(t, newAppServer(t), apps.EnableClient(client(era.version)))
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(tools.Tools) != 1 {
				t.Fatalf("got %d tools, want 1", len(tools.Tools))
			}
			meta := asJSON(t, tools.Tools[0])["_meta"].(map[string]any)
			ui, _ := meta["ui"].(map[string]any)
			if ui["resourceUri"] != "ui://clock/view.html" {
				t.Errorf(`_meta.ui = %v, want resourceUri "ui://clock/view.html"`, meta["ui"])
			}
			if vis, _ := ui["visibility"].([]any); len(vis) != 2 || vis[0] != "model" || vis[1] != "app" {
				t.Errorf("_meta.ui.visibility = %v, want [model app]", ui["visibility"])
			}
			if meta["ui/resourceUri"] != "ui://clock/view.html" {
				t.Errorf(`_meta["ui/resourceUri"] = %v, want the view URI (hosts still read the flat key)`, meta["ui/resourceUri"])
			}
			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://clock/view.html"})
			if err != nil {
				t.Fatal(err)
			}
			c := read.Contents[0]
			if c.MIMEType != apps.MIMEType || c.Text != clockHTML {
				t.Errorf("read %q %q, want %q and the view's HTML", c.MIMEType, c.Text, apps.MIMEType)
			}
			rmeta := asJSON(t, map[string]any{"m": c.Meta})["m"].(map[string]any)["ui"].(map[string]any)
			csp, _ := rmeta["csp"].(map[string]any)
			if domains, _ := csp["connectDomains"].([]any); len(domains) != 1 || domains[0] != "https://api.example.com" {
				t.Errorf("contents _meta.ui.csp = %v", rmeta["csp"])
			}
			if perms, _ := rmeta["permissions"].(map[string]any); perms["clipboardWrite"] == nil {
				t.Errorf("contents _meta.ui.permissions = %v, want clipboardWrite", rmeta["permissions"])
			}
			list, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Resources) != 1 || list.Resources[0].MIMEType != apps.MIMEType {
				t.Errorf("resources/list = %+v, want the view with type %s", list.Resources, apps.MIMEType)
			}
		})
	}
}

func TestServerDeclaresExtension(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connect(t, newAppServer(t), client(era.version))
			caps := cs.ServerCapabilities()
			if caps == nil || caps.Extensions[apps.ExtensionID] == nil {
				t.Fatalf("server capabilities %+v lack %s", caps, apps.ExtensionID)
			}
		})
	}
	s := mcp.NewServer("plain", "v1.0.0", nil)
	cs := connect(t, s, client(""))
	if caps := cs.ServerCapabilities(); caps != nil && caps.Extensions[apps.ExtensionID] != nil {
		t.Errorf("a server that did not enable Apps declares it: %+v", caps.Extensions)
	}
}

func TestHandlerSeesWhetherHostRendersApps(t *testing.T) {
	for _, era := range eras {
		for _, tc := range []struct {
			name   string
			client *mcp.Client
			want   string
		}{
			{"apps host", apps.EnableClient(client(era.version)), "rendered"},
			{"plain host", client(era.version), "text only"},
		} {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				cs := connect(t, newAppServer(t), tc.client)
				res, err := cs.CallTool(context.Background(), "clock", map[string]any{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError || len(res.Content) != 1 || res.Content[0].Text != tc.want {
					t.Errorf("result %+v, want text %q", res.Content, tc.want)
				}
			})
		}
	}
}

func TestAddAppToolRefusesBadViews(t *testing.T) {
	tool := func() *mcp.ServerTool {
		return mcp.NewTool("t", "d", func(context.Context, *mcp.ServerSession, clockIn) ([]*mcp.Content, error) { return nil, nil })
	}
	for _, tc := range []struct {
		name string
		tool *mcp.ServerTool
		view *apps.View
		opts *apps.ToolOptions
		want error
	}{
		{"nil view", tool(), nil, nil, apps.ErrInvalidView},
		{"https URI", tool(), &apps.View{URI: "https://example.com/v.html", HTML: clockHTML}, nil, apps.ErrInvalidView},
		{"bare scheme", tool(), &apps.View{URI: "ui://", HTML: clockHTML}, nil, apps.ErrInvalidView},
		{"no HTML", tool(), &apps.View{URI: "ui://v", HTML: "  "}, nil, apps.ErrInvalidView},
		{"nil tool", nil, &apps.View{URI: "ui://v", HTML: clockHTML}, nil, nil},
		{"unknown visibility", tool(), &apps.View{URI: "ui://v", HTML: clockHTML}, &apps.ToolOptions{Visibility: []apps.Visibility{"everyone"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mcp.NewServer("s", "v1", nil)
			err := apps.AddAppTool(s, tc.tool, tc.view, tc.opts)
			if err == nil {
				t.Fatal("AddAppTool accepted it")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if tc.want == nil && !strings.HasPrefix(err.Error(), "apps:") {
				t.Errorf("error %q does not say where it comes from", err)
			}
		})
	}
}

func TestClientSupportsApps(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps *mcp.ClientCapabilities
		want bool
	}{
		{"nil", nil, false},
		{"no extensions", &mcp.ClientCapabilities{}, false},
		{"typed", &mcp.ClientCapabilities{Extensions: map[string]any{apps.ExtensionID: apps.ClientCapability{MIMETypes: []string{apps.MIMEType}}}}, true},
		{"decoded", &mcp.ClientCapabilities{Extensions: map[string]any{apps.ExtensionID: map[string]any{"mimeTypes": []any{apps.MIMEType}}}}, true},
		{"other type only", &mcp.ClientCapabilities{Extensions: map[string]any{apps.ExtensionID: map[string]any{"mimeTypes": []any{"text/html"}}}}, false},
		{"empty settings", &mcp.ClientCapabilities{Extensions: map[string]any{apps.ExtensionID: map[string]any{}}}, false},
	} {
		if got := apps.ClientSupportsApps(tc.caps); got != tc.want {
			t.Errorf("%s: ClientSupportsApps = %v, want %v", tc.name, got, tc.want)
		}
	}
}
