package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// prompts returns the prompts of the prompts-* scenarios, the completion
// target of completion-complete and the prompt of
// input-required-result-non-tool-request.
func prompts() []*mcp.ServerPrompt {
	type withArgs struct {
		Arg1 string `json:"arg1"`
		Arg2 string `json:"arg2"`
	}
	type withResource struct {
		ResourceURI string `json:"resourceUri"`
	}
	return []*mcp.ServerPrompt{
		simplePrompt("test_simple_prompt", "A simple prompt without arguments.", "This is a simple prompt for testing."),
		mcp.NewPrompt("test_prompt_with_arguments", "A prompt with two required arguments.",
			func(_ context.Context, _ *mcp.ServerSession, in withArgs) (*mcp.GetPromptResult, error) {
				return userText(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2)), nil
			},
			mcp.Argument("arg1", mcp.CompleteWith(completeFrom("paris", "park", "party", "test", "testValue1"))),
			mcp.Argument("arg2", mcp.CompleteWith(completeFrom("testValue2", "other"))),
		),
		mcp.NewPrompt("test_prompt_with_embedded_resource", "A prompt that embeds the resource it is given.",
			func(_ context.Context, _ *mcp.ServerSession, in withResource) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.NewEmbeddedResource(
						mcp.NewTextResourceContents(in.ResourceURI, "text/plain", "Embedded resource content for testing."))},
					{Role: mcp.RoleUser, Content: mcp.NewTextContent("Please process the embedded resource above.")},
				}}, nil
			}),
		{
			Prompt: &mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image."},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
					{Role: mcp.RoleUser, Content: mcp.NewImageContent(pngImage, "image/png")},
					{Role: mcp.RoleUser, Content: mcp.NewTextContent("Please analyze the image above.")},
				}}, nil
			},
		},
		{
			Prompt: &mcp.Prompt{Name: "test_input_required_result_prompt", Description: "Asks for context before it renders (2026-07-28)."},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
				context, err := askString(mcp.InputKey(ctx, "user_context"), ss, "Please provide context for the prompt", "context")
				if err != nil {
					return nil, err
				}
				return userText("Prompt rendered with context: " + context), nil
			},
		},
	}
}

// simplePrompt returns a prompt without arguments that renders one user
// text message.
func simplePrompt(name, description, text string) *mcp.ServerPrompt {
	return &mcp.ServerPrompt{
		Prompt: &mcp.Prompt{Name: name, Description: description},
		Handler: func(context.Context, *mcp.ServerSession, *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
			return userText(text), nil
		},
	}
}

// userText is a rendered prompt of one user text message.
func userText(text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}}}
}

// completeFrom completes a value to the candidates it prefixes.
func completeFrom(candidates ...string) mcp.Completer {
	return func(_ context.Context, value string, _ map[string]string) ([]string, error) {
		var out []string
		for _, c := range candidates {
			if strings.HasPrefix(c, value) {
				out = append(out, c)
			}
		}
		return out, nil
	}
}
