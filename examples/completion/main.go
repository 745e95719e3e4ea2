// Command completion is an MCP server whose prompt arguments and resource
// template variables offer completions (completion/complete), as clients
// show them while a user types.
//
//	go run ./examples/completion            # stdio
//	go run ./examples/completion -http localhost:8080
package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(newServer) }

// docs:region completer
var cities = map[string][]string{
	"pt": {"Braga", "Lisbon", "Porto"},
	"es": {"Bilbao", "Madrid", "Sevilla"},
}

// completeCity suggests cities starting with what the user typed, in the
// country already chosen if there is one.
func completeCity(ctx context.Context, value string, resolved map[string]string) ([]string, error) {
	var out []string
	for country, names := range cities {
		if c := resolved["country"]; c != "" && c != country {
			continue
		}
		for _, name := range names {
			if strings.HasPrefix(strings.ToLower(name), strings.ToLower(value)) {
				out = append(out, name)
			}
		}
	}
	return out, nil
}

// docs:endregion

func completeCountry(ctx context.Context, value string, _ map[string]string) ([]string, error) {
	var out []string
	for country := range cities {
		if strings.HasPrefix(country, value) {
			out = append(out, country)
		}
	}
	return out, nil
}

func newServer() *mcp.Server {
	server := mcp.NewServer("travel", "v1.0.0", nil)
	// docs:region register
	server.AddPrompts(mcp.NewPrompt("plan_trip", "Plans a trip to a city",
		func(ctx context.Context, ss *mcp.ServerSession, args map[string]string) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: mcp.RoleUser, Content: mcp.NewTextContent("Plan three days in " + args["city"])},
			}}, nil
		},
		mcp.Argument("country", mcp.CompleteWith(completeCountry)),
		mcp.Argument("city", mcp.ArgumentRequired(true), mcp.CompleteWith(completeCity))))

	server.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: "guide://{country}/{city}", Name: "city-guide"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			v := mcp.ResourceTemplateValues(ctx)
			text := fmt.Sprintf("A guide to %s (%s)", v.Get("city"), v.Get("country"))
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: text}}}, nil
		},
		Completers: map[string]mcp.Completer{"country": completeCountry, "city": completeCity},
	})
	// docs:endregion
	return server
}
