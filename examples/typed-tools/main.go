// Command typed-tools is an MCP server with a typed tool: its input and
// output schemas are inferred from Go types, its arguments are validated
// before the handler runs, and its result is sent as structured content with
// a text fallback.
//
//	go run ./examples/typed-tools            # stdio
//	go run ./examples/typed-tools -http localhost:8080
package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(newServer) }

// docs:region types
// forecastArgs are the tool's arguments. Fields without omitempty are
// required; the json names are the argument names.
type forecastArgs struct {
	City  string `json:"city"`
	Days  int    `json:"days,omitempty"`
	Units string `json:"units,omitempty"`
}

// forecast is the tool's structured output; its schema is the tool's
// outputSchema.
type forecast struct {
	City  string    `json:"city"`
	Units string    `json:"units"`
	Highs []float64 `json:"highs"`
}

// ToolContent makes forecast a ToolContenter: the text clients show to a
// model, instead of the JSON of the structured content.
func (f forecast) ToolContent() []*mcp.Content {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, highs in %s:", f.City, f.Units)
	for _, h := range f.Highs {
		fmt.Fprintf(&b, " %.0f", h)
	}
	return []*mcp.Content{mcp.NewTextContent(b.String())}
}

// docs:endregion

// docs:region handler
func getForecast(ctx context.Context, ss *mcp.ServerSession, in forecastArgs) (forecast, error) {
	if in.Days == 0 {
		in.Days = 3
	}
	if in.Units == "" {
		in.Units = "celsius"
	}
	out := forecast{City: in.City, Units: in.Units}
	for i := range in.Days {
		high := 20 + float64(i)
		if in.Units == "fahrenheit" {
			high = high*9/5 + 32
		}
		out.Highs = append(out.Highs, high)
	}
	return out, nil
}

// docs:endregion

func newServer() *mcp.Server {
	// docs:region register
	server := mcp.NewServer("weather", "v1.0.0", nil)
	server.AddTools(mcp.NewStructuredTool("forecast", "Daily highs for a city", getForecast,
		mcp.ToolTitle("Forecast"),
		mcp.ReadOnlyHint(true),
		mcp.IdempotentHint(true),
		mcp.Input(
			mcp.Property("city", mcp.Description("city name, e.g. Lisbon")),
			mcp.Property("days", mcp.Description("number of days, 1 to 7")),
			mcp.Property("units", mcp.Enum("celsius", "fahrenheit")),
		)))
	// docs:endregion
	return server
}
