package mcp

import (
	"context"
	"iter"
)

// ListPrompts lists one page of the server's prompts (spec method
// prompts/list).
func (cs *ClientSession) ListPrompts(ctx context.Context, params *ListPromptsParams) (*ListPromptsResult, error) {
	if err := requireServer(cs.serverCaps.Prompts != nil, "prompts"); err != nil {
		return nil, err
	}
	return clientCall[ListPromptsParams, ListPromptsResult](ctx, cs, MethodListPrompts, params)
}

// GetPrompt renders one of the server's prompts with arguments (spec method
// prompts/get).
func (cs *ClientSession) GetPrompt(ctx context.Context, params *GetPromptParams) (*GetPromptResult, error) {
	if err := requireServer(cs.serverCaps.Prompts != nil, "prompts"); err != nil {
		return nil, err
	}
	return clientCall[GetPromptParams, GetPromptResult](ctx, cs, MethodGetPrompt, params)
}

// Prompts iterates over all the server's prompts, page by page, starting at
// params.Cursor if params is not nil. It stops at the first error.
func (cs *ClientSession) Prompts(ctx context.Context, params *ListPromptsParams) iter.Seq2[*Prompt, error] {
	return paginate(ctx, params, cs.ListPrompts, func(r *ListPromptsResult) ([]*Prompt, string) { return r.Prompts, r.NextCursor })
}
