// Command prompts is an MCP server with two prompts: one whose arguments
// are a Go struct, one whose arguments are declared with options.
//
//	go run ./examples/prompts            # stdio
//	go run ./examples/prompts -http localhost:8080
package main

import (
	"context"
	"fmt"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() { serve.Main(newServer) }

// docs:region struct
// reviewArgs are the arguments of code_review: code is required, language
// is optional (omitempty). Prompt arguments are strings.
type reviewArgs struct {
	Code     string `json:"code"`
	Language string `json:"language,omitempty"`
}

func review(ctx context.Context, ss *mcp.ServerSession, in reviewArgs) (*mcp.GetPromptResult, error) {
	text := fmt.Sprintf("Review this %s code for bugs:\n\n%s", in.Language, in.Code)
	return &mcp.GetPromptResult{
		Description: "A code review request",
		Messages: []*mcp.PromptMessage{
			{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)},
		},
	}, nil
}

// docs:endregion

func newServer() *mcp.Server {
	server := mcp.NewServer("prompts", "v1.0.0", nil)
	// docs:region register
	server.AddPrompts(
		mcp.NewPrompt("code_review", "Asks the model to review code", review,
			mcp.PromptTitle("Code review"),
			mcp.Argument("code", mcp.ArgumentTitle("Code to review"))),
		mcp.NewPrompt("translate", "Asks the model to translate a text",
			func(ctx context.Context, ss *mcp.ServerSession, args map[string]string) (*mcp.GetPromptResult, error) {
				text := fmt.Sprintf("Translate into %s:\n\n%s", args["to"], args["text"])
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)},
				}}, nil
			},
			mcp.Argument("text", mcp.ArgumentRequired(true)),
			mcp.Argument("to", mcp.ArgumentRequired(true), mcp.ArgumentTitle("Target language"))),
	)
	// docs:endregion
	return server
}
