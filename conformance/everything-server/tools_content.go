package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// emptySchema is the input schema of tools without arguments.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// tool returns a tool with the given name, description and input schema
// (nil means no arguments).
func tool(name, description string, schema json.RawMessage, h mcp.ToolHandler) *mcp.ServerTool {
	if schema == nil {
		schema = emptySchema
	}
	return &mcp.ServerTool{Tool: &mcp.Tool{Name: name, Description: description, InputSchema: schema}, Handler: h}
}

// decodeArgs decodes the arguments of a tool call into v.
func decodeArgs(p *mcp.CallToolParams, v any) error {
	raw, _ := p.Arguments.(json.RawMessage)
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// textResult is a result with one text block.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(text)}}
}

// contentTools are the tools of the tools-call-* scenarios that return
// fixed content, log or report progress.
func contentTools() []*mcp.ServerTool {
	return []*mcp.ServerTool{
		tool("test_simple_text", "Returns a simple text response.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return textResult("This is a simple text response for testing."), nil
			}),
		tool("test_image_content", "Returns a PNG image.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewImageContent(pngImage, "image/png")}}, nil
			}),
		tool("test_audio_content", "Returns a WAV audio clip.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewAudioContent(wavAudio, "audio/wav")}}, nil
			}),
		tool("test_embedded_resource", "Returns an embedded text resource.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewEmbeddedResource(
					mcp.NewTextResourceContents("test://embedded-resource", "text/plain", "This is an embedded resource content."))}}, nil
			}),
		tool("test_multiple_content_types", "Returns text, an image and an embedded resource.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []*mcp.Content{
					mcp.NewTextContent("Multiple content types test:"),
					mcp.NewImageContent(pngImage, "image/png"),
					mcp.NewEmbeddedResource(mcp.NewTextResourceContents("test://mixed-content-resource",
						"application/json", `{"test":"data","value":123}`)),
				}}, nil
			}),
		tool("test_error_handling", "Always fails with a tool error.", nil,
			func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{IsError: true, Content: []*mcp.Content{
					mcp.NewTextContent("This tool intentionally returns an error for testing")}}, nil
			}),
		tool("test_tool_with_logging", "Sends three log messages while it runs.", nil, logThrice),
		tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100.", nil, progressThrice),
	}
}

// logThrice sends three info log messages, 50 ms apart.
func logThrice(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevelInfo, Data: msg}); err != nil {
			return nil, err
		}
	}
	return textResult("Logging test completed"), nil
}

// progressThrice reports progress 0/100, 50/100 and 100/100, 50 ms apart,
// when the request carries a progress token.
func progressThrice(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	token := p.Meta.ProgressToken
	if token == nil {
		return textResult("Progress test completed (no progress token given)"), nil
	}
	for i, progress := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: progress, Total: 100, Message: fmt.Sprintf("Completed step %d of 3", i+1),
		})
		if err != nil {
			return nil, err
		}
	}
	return textResult("Progress test completed"), nil
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
