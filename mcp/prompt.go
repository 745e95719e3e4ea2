package mcp

import "context"

// A PromptHandler renders a prompt for prompts/get.
type PromptHandler func(ctx context.Context, ss *ServerSession, params *GetPromptParams) (*GetPromptResult, error)

// A ServerPrompt is a prompt bound to the handler that renders it.
type ServerPrompt struct {
	Prompt  *Prompt
	Handler PromptHandler
}
