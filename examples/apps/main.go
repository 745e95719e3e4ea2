// Command apps is an MCP server with one MCP App: the tool "show_clock",
// whose answer a host that supports Apps shows in an HTML view (a clock)
// and any other host shows as text. It serves MCP over stdin and stdout,
// and exits 0 when its input closes; with -http it serves streamable HTTP
// at /mcp instead, until interrupted.
//
//	go run ./examples/apps
//	go run ./examples/apps -http localhost:8080
package main

import (
	"context"
	_ "embed"
	"fmt"
	"log"
	"time"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/mcp"
)

//go:embed view.html
var viewHTML string

// viewURI is where hosts read the clock's view.
const viewURI = "ui://clock/view.html"

// clockIn is the input of show_clock.
type clockIn struct {
	Zone string `json:"zone,omitempty" jsonschema:"an IANA time zone such as Europe/Paris; UTC if empty"`
}

// clockOut is the structured result the view shows; its text is what a
// host without Apps shows.
type clockOut struct {
	Time string `json:"time" jsonschema:"the time of day, HH:MM:SS"`
	Zone string `json:"zone" jsonschema:"the time zone"`
	text string
}

// ToolContent is the text fallback of the result.
func (c clockOut) ToolContent() []*mcp.Content { return []*mcp.Content{mcp.NewTextContent(c.text)} }

// now is the clock the tool reads; tests replace it.
var now = time.Now

func showClock(ctx context.Context, ss *mcp.ServerSession, in clockIn) (clockOut, error) {
	zone := in.Zone
	if zone == "" {
		zone = "UTC"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return clockOut{}, fmt.Errorf("unknown time zone %q", zone)
	}
	out := clockOut{Time: now().In(loc).Format("15:04:05"), Zone: zone}
	// docs:region fallback
	out.text = fmt.Sprintf("It is %s in %s.", out.Time, out.Zone)
	if apps.SessionSupportsApps(ss) {
		out.text += " The clock is shown in its view."
	}
	// docs:endregion
	return out, nil
}

// newServer returns the server, with Apps turned on and the clock app
// registered.
func newServer() *mcp.Server {
	// docs:region server
	s := apps.EnableServer(mcp.NewServer("apps-example", "v1.0.0", nil))
	tool := mcp.NewStructuredTool("show_clock", "Show the current time, as a clock in hosts that render MCP Apps", showClock)
	border := true
	err := apps.AddAppTool(s, tool, &apps.View{
		URI:         viewURI,
		Name:        "clock-view",
		Title:       "Clock",
		Description: "A clock showing the time show_clock answered",
		HTML:        viewHTML,
		Meta:        &apps.ResourceMeta{PrefersBorder: &border},
	}, nil)
	// docs:endregion
	if err != nil {
		log.Fatal(err)
	}
	return s
}

func main() { serve.Main(newServer) }
