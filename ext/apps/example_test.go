package apps_test

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/mcp"
)

// A server with one app tool, and a host that renders apps listing it.
func ExampleAddAppTool() {
	server := apps.EnableServer(mcp.NewServer("weather", "v1.0.0", nil))
	forecast := mcp.NewTool("forecast", "Show the forecast",
		func(ctx context.Context, ss *mcp.ServerSession, in struct {
			City string `json:"city"`
		}) ([]*mcp.Content, error) {
			return []*mcp.Content{mcp.NewTextContent("Sunny in " + in.City)}, nil
		})
	err := apps.AddAppTool(server, forecast, &apps.View{
		URI:  "ui://weather/forecast.html",
		HTML: "<!doctype html><html><body>…</body></html>",
		Meta: &apps.ResourceMeta{CSP: &apps.CSP{ResourceDomains: []string{"https://cdn.example.com"}}},
	}, nil)
	if err != nil {
		panic(err)
	}

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st)
	defer ss.Close()
	host, _ := apps.EnableClient(mcp.NewClient("host", "v1.0.0", nil)).Connect(ctx, ct)
	defer host.Close()

	tools, _ := host.ListTools(ctx, nil)
	fmt.Println(tools.Tools[0].Name, tools.Tools[0].Meta.Data["ui/resourceUri"])
	view, _ := host.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://weather/forecast.html"})
	fmt.Println(view.Contents[0].MIMEType)
	// Output:
	// forecast ui://weather/forecast.html
	// text/html;profile=mcp-app
}
