package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/gomcp/sdk/mcp"
)

// modernTools are the diagnostic tools of the 2026-07-28 scenarios
// server-stateless and http-custom-header-server-validation.
func modernTools() []*mcp.ServerTool {
	var toolChanges, promptChanges atomic.Int64
	return []*mcp.ServerTool{
		tool("test_x_mcp_header", "Echoes a region mirrored into the Mcp-Param-Region header.",
			json.RawMessage(`{"type":"object","properties":{`+
				`"region":{"type":"string","description":"Region, mirrored as the Mcp-Param-Region header","x-mcp-header":"Region"},`+
				`"level":{"type":"integer","description":"A value that is not mirrored"}},"required":["region"]}`),
			func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				var args struct {
					Region string `json:"region"`
					Level  *int   `json:"level"`
				}
				if err := decodeArgs(p, &args); err != nil {
					return nil, err
				}
				return textResult("region=" + args.Region), nil
			}),
		tool("test_missing_capability", "Needs the client's sampling capability.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				// CreateMessage fails with -32021 when the request did not
				// declare sampling; with sampling declared it asks for input.
				res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
					Messages:  []*mcp.SamplingMessage{{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent("Say hello")}}},
					MaxTokens: 20,
				})
				if err != nil {
					return nil, err
				}
				return textResult("LLM response: " + firstText(res.Content)), nil
			}),
		tool("test_streaming_elicitation", "Returns a plain result; its response stream carries no requests.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return textResult("streaming elicitation test completed"), nil
			}),
		tool("test_logging_tool", "Logs at every level; the SDK sends only what the request's log level allows.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				for _, l := range []mcp.LoggingLevel{mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelError} {
					if err := ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: l, Data: "test_logging_tool at " + string(l)}); err != nil {
						return nil, err
					}
				}
				return textResult("logging tool completed"), nil
			}),
		tool("test_trigger_tool_change", "Adds a new transient tool, so the tool list changes.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				n := shared.nextChange(ctx, "tool", &toolChanges) // scaleout.go: one count for all instances
				applyToolChange(ss.Server(), n)
				shared.announce(ctx, "tool", n)
				return textResult(fmt.Sprintf("tool list changed (%d)", n)), nil
			}),
		tool("test_trigger_prompt_change", "Adds a new transient prompt, so the prompt list changes.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				n := shared.nextChange(ctx, "prompt", &promptChanges)
				applyPromptChange(ss.Server(), n)
				shared.announce(ctx, "prompt", n)
				return textResult(fmt.Sprintf("prompt list changed (%d)", n)), nil
			}),
	}
}

// applyToolChange replaces transient tool n-1 with transient tool n.
func applyToolChange(srv *mcp.Server, n int64) {
	srv.RemoveTools(fmt.Sprintf("transient_tool_%d", n-1))
	srv.AddTools(tool(fmt.Sprintf("transient_tool_%d", n), "A tool that comes and goes.", nil,
		func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return textResult("transient"), nil
		}))
}

// applyPromptChange replaces transient prompt n-1 with transient prompt n.
func applyPromptChange(srv *mcp.Server, n int64) {
	srv.RemovePrompts(fmt.Sprintf("transient_prompt_%d", n-1))
	srv.AddPrompts(simplePrompt(fmt.Sprintf("transient_prompt_%d", n), "A prompt that comes and goes.", "transient"))
}
