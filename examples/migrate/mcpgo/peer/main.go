// Command peer is an MCP server written with github.com/mark3labs/mcp-go,
// kept beside its translation (../ours) for the migration guide. Each
// docs:region names a concept; the same region in ../ours translates it.
package main

//lint:file-ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it: the migration example ports its use

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address instead of stdio")
	flag.Parse()
	s := newServer()
	if *addr != "" {
		// docs:region http
		httpServer := server.NewStreamableHTTPServer(s, server.WithEndpointPath("/mcp"))
		if err := httpServer.Start(*addr); err != nil {
			log.Fatal(err)
		}
		// docs:endregion
		return
	}
	// docs:region stdio
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
	// docs:endregion
}

func newServer() *server.MCPServer {
	// docs:region construct
	hooks := &server.Hooks{}
	s := server.NewMCPServer("demo", "v1.0.0",
		server.WithInstructions("Greets people and books tables."),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithInputSchemaValidation(),
		server.WithHooks(hooks),
	)
	// docs:endregion
	addHooks(hooks)
	// docs:region middleware
	s.Use(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			start := time.Now()
			res, err := next(ctx, req)
			log.Printf("tool %s took %v", req.Params.Name, time.Since(start))
			return res, err
		}
	})
	// docs:endregion
	// docs:region tool
	s.AddTool(mcp.NewTool("greet",
		mcp.WithDescription("Says hi"),
		mcp.WithString("name", mcp.Required(), mcp.Description("who to greet")),
		mcp.WithString("style", mcp.Enum("plain", "loud"), mcp.DefaultString("plain")),
	), greet)
	// docs:endregion
	// docs:region typed
	s.AddTool(mcp.NewTool("forecast",
		mcp.WithDescription("Daily highs for a city"),
		mcp.WithInputSchema[forecastArgs](),
		mcp.WithOutputSchema[forecast](),
	), mcp.NewStructuredToolHandler(getForecast))
	// docs:endregion
	s.AddTool(mcp.NewTool("summarize", mcp.WithString("text", mcp.Required())), summarize)
	s.AddTool(mcp.NewTool("book_table"), bookTable)
	s.AddTool(mcp.NewTool("whoami"), whoami)
	addResources(s)
	addPrompts(s)
	return s
}

// docs:region handler
func greet(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if req.GetString("style", "plain") == "loud" {
		name += "!"
	}
	return mcp.NewToolResultText("Hi " + name), nil
}

// docs:endregion

// docs:region typed-handler
type forecastArgs struct {
	City string `json:"city" jsonschema:"required,description=city name"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
}

type forecast struct {
	City  string    `json:"city"`
	Highs []float64 `json:"highs"`
}

func getForecast(ctx context.Context, req mcp.CallToolRequest, in forecastArgs) (forecast, error) {
	if in.City == "" {
		return forecast{}, errors.New("no city")
	}
	return forecast{City: in.City, Highs: []float64{20, 21, 19}[:max(1, min(in.Days, 3))]}, nil
}

// docs:endregion

// docs:region hooks
func addHooks(hooks *server.Hooks) {
	hooks.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, message any) {
		log.Printf("-> %s", method)
	})
	hooks.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, message any, err error) {
		log.Printf("%s failed: %v", method, err)
	})
}

// docs:endregion

// docs:region sampling
func summarize(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text := req.GetString("text", "")
	res, err := server.ServerFromContext(ctx).RequestSampling(ctx, mcp.CreateMessageRequest{
		CreateMessageParams: mcp.CreateMessageParams{
			Messages: []mcp.SamplingMessage{
				{Role: mcp.RoleUser, Content: mcp.NewTextContent("Summarize: " + text)},
			},
			MaxTokens: 100,
		},
	})
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(fmt.Sprint(res.Content)), nil
}

// docs:endregion

// docs:region elicitation
func bookTable(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := server.ServerFromContext(ctx).RequestElicitation(ctx, mcp.ElicitationRequest{
		Params: mcp.ElicitationParams{
			Message: "How many people?",
			RequestedSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"people": map[string]any{"type": "integer"}},
				"required":   []string{"people"},
			},
		},
	})
	if err != nil {
		return nil, err
	}
	if res.Action != mcp.ElicitationResponseActionAccept {
		return mcp.NewToolResultText("not booked"), nil
	}
	people := res.Content.(map[string]any)["people"]
	return mcp.NewToolResultText(fmt.Sprintf("booked for %v", people)), nil
}

// docs:endregion

// docs:region session
func whoami(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	session := server.ClientSessionFromContext(ctx)
	return mcp.NewToolResultText("session " + session.SessionID()), nil
}

// docs:endregion

// docs:region resources
func addResources(s *server.MCPServer) {
	s.AddResource(mcp.NewResource("notes://index", "index", mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{
				mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "welcome"},
			}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("notes://{name}", "note"),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			name := req.Params.Arguments["name"].([]string)[0]
			return []mcp.ResourceContents{
				mcp.TextResourceContents{URI: req.Params.URI, Text: "note " + name},
			}, nil
		})
}

// docs:endregion

// docs:region prompts
func addPrompts(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("code_review",
		mcp.WithPromptDescription("Asks the model to review code"),
		mcp.WithArgument("code", mcp.RequiredArgument(), mcp.ArgumentDescription("the code")),
		mcp.WithArgument("language"),
	), func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		text := fmt.Sprintf("Review this %s code:\n%s", req.Params.Arguments["language"], req.Params.Arguments["code"])
		return mcp.NewGetPromptResult("A code review", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
		}), nil
	})
}

// docs:endregion
