// Command peer is an MCP server written with
// github.com/modelcontextprotocol/go-sdk, kept beside its translation
// (../ours) for the migration guide. Each docs:region names a concept; the
// same region in ../ours translates it.
package main

//lint:file-ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it: the migration example ports its use

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address instead of stdio")
	flag.Parse()
	ctx := context.Background()
	s := newServer()
	if *addr != "" {
		// docs:region http
		getServer := func(*http.Request) *mcp.Server { return s }
		handler := mcp.NewStreamableHTTPHandler(getServer, nil)
		http.Handle("/mcp", handler)
		if err := http.ListenAndServe(*addr, nil); err != nil {
			log.Fatal(err)
		}
		// docs:endregion
		return
	}
	// docs:region stdio
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
	// docs:endregion
}

func newServer() *mcp.Server {
	// docs:region construct
	s := mcp.NewServer(&mcp.Implementation{Name: "demo", Version: "v1.0.0"}, &mcp.ServerOptions{
		Instructions: "Greets people and books tables.",
	})
	// docs:endregion
	// docs:region middleware
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			start := time.Now()
			res, err := next(ctx, method, req)
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
				log.Printf("tool %s took %v", p.Name, time.Since(start))
			}
			return res, err
		}
	})
	// docs:endregion
	// docs:region tool
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Says hi"}, greet)
	// docs:endregion
	// docs:region typed
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "Daily highs for a city"}, getForecast)
	// docs:endregion
	mcp.AddTool(s, &mcp.Tool{Name: "summarize"}, summarize)
	mcp.AddTool(s, &mcp.Tool{Name: "book_table"}, bookTable)
	mcp.AddTool(s, &mcp.Tool{Name: "whoami"}, whoami)
	addResources(s)
	addPrompts(s)
	return s
}

// docs:region handler
type greetArgs struct {
	Name  string `json:"name" jsonschema:"who to greet"`
	Style string `json:"style,omitempty" jsonschema:"plain or loud"`
}

func greet(ctx context.Context, req *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
	if in.Style == "loud" {
		in.Name += "!"
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: "Hi " + in.Name}},
	}, nil, nil
}

// docs:endregion

// docs:region typed-handler
type forecastArgs struct {
	City string `json:"city" jsonschema:"city name"`
	Days int    `json:"days,omitempty" jsonschema:"number of days, 1 to 7"`
}

type forecast struct {
	City  string    `json:"city"`
	Highs []float64 `json:"highs"`
}

func getForecast(ctx context.Context, req *mcp.CallToolRequest, in forecastArgs) (*mcp.CallToolResult, forecast, error) {
	if in.Days > 7 { // the struct tag cannot say maximum=7
		return nil, forecast{}, errors.New("days must be at most 7")
	}
	return nil, forecast{City: in.City, Highs: []float64{20, 21, 19}[:max(1, min(in.Days, 3))]}, nil
}

// docs:endregion

type summarizeArgs struct {
	Text string `json:"text"`
}

// docs:region sampling
func summarize(ctx context.Context, req *mcp.CallToolRequest, in summarizeArgs) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages: []*mcp.SamplingMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Summarize: " + in.Text}},
		},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{res.Content}}, nil, nil
}

// docs:endregion

// docs:region elicitation
func bookTable(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
		Message: "How many people?",
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"people": map[string]any{"type": "integer"}},
			"required":   []string{"people"},
		},
	})
	if err != nil {
		return nil, nil, err
	}
	text := "not booked"
	if res.Action == "accept" {
		text = fmt.Sprintf("booked for %v", res.Content["people"])
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// docs:endregion

// docs:region session
func whoami(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	text := fmt.Sprintf("session %q, protocol %s", req.Session.ID(), req.ProtocolVersion())
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// docs:endregion

// docs:region resources
func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: "notes://index", Name: "index", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: req.Params.URI, MIMEType: "text/plain", Text: "welcome"},
			}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "notes://{name}", Name: "note"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			name := strings.TrimPrefix(req.Params.URI, "notes://")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: req.Params.URI, Text: "note " + name},
			}}, nil
		})
}

// docs:endregion

// docs:region prompts
func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "code_review",
		Description: "Asks the model to review code",
		Arguments: []*mcp.PromptArgument{
			{Name: "code", Description: "the code", Required: true},
			{Name: "language"},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		text := fmt.Sprintf("Review this %s code:\n%s", args["language"], args["code"])
		return &mcp.GetPromptResult{
			Description: "A code review",
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		}, nil
	})
}

// docs:endregion
