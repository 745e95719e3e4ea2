package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gomcp/sdk/mcp"
)

// errNoArgs reports a required tool argument that is missing.
var errNoArgs = errors.New("missing required argument")

// legacyAskTools are the tools of the scenarios in which the server asks the
// client (sampling, elicitation) in the middle of a call: tools-call-sampling,
// tools-call-elicitation, elicitation-sep1034-defaults and
// elicitation-sep1330-enums.
func legacyAskTools() []*mcp.ServerTool {
	return []*mcp.ServerTool{
		tool("test_sampling", "Asks the client's model to answer a prompt.",
			json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the model"}},"required":["prompt"]}`),
			sample),
		tool("test_elicitation", "Asks the user for a username and an email address.",
			json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}`),
			elicitUser),
		tool("test_elicitation_sep1034_defaults", "Elicits a form whose every field has a default (SEP-1034).", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return elicitForm(ctx, ss, "Please review and update the form fields with defaults", defaultsSchema())
			}),
		tool("test_elicitation_sep1330_enums", "Elicits a form with every kind of enum field (SEP-1330).", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return elicitForm(ctx, ss, "Please select options from the enum fields", enumsSchema())
			}),
	}
}

func sample(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var args struct {
		Prompt *string `json:"prompt"`
	}
	if err := decodeArgs(p, &args); err != nil {
		return nil, err
	}
	if args.Prompt == nil {
		return nil, fmt.Errorf("%w: prompt", errNoArgs)
	}
	//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the conformance suite tests it
	res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent(*args.Prompt)}}},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, err
	}
	return textResult("LLM response: " + firstText(res.Content)), nil
}

func elicitUser(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	var args struct {
		Message *string `json:"message"`
	}
	if err := decodeArgs(p, &args); err != nil {
		return nil, err
	}
	if args.Message == nil {
		return nil, fmt.Errorf("%w: message", errNoArgs)
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: *args.Message,
		RequestedSchema: &mcp.ElicitationSchema{
			Type: "object",
			Properties: map[string]*mcp.PrimitiveSchema{
				"username": {Type: "string", Description: "User's response"},
				"email":    {Type: "string", Description: "User's email address"},
			},
			Required: []string{"username", "email"},
		},
	})
	if err != nil {
		return nil, err
	}
	content, _ := json.Marshal(res.Content)
	return textResult(fmt.Sprintf("User response: action=%s, content=%s", res.Action, content)), nil
}

// elicitForm elicits schema and reports the answer.
func elicitForm(ctx context.Context, ss *mcp.ServerSession, message string, schema *mcp.ElicitationSchema) (*mcp.CallToolResult, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, err
	}
	content, _ := json.Marshal(res.Content)
	return textResult(fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, content)), nil
}

// defaultsSchema has a default for every primitive type (SEP-1034).
func defaultsSchema() *mcp.ElicitationSchema {
	return &mcp.ElicitationSchema{
		Type: "object",
		Properties: map[string]*mcp.PrimitiveSchema{
			"name":     {Type: "string", Description: "User name", Default: "John Doe"},
			"age":      {Type: "integer", Description: "User age", Default: 30},
			"score":    {Type: "number", Description: "User score", Default: 95.5},
			"status":   {Type: "string", Description: "User status", Enum: []string{"active", "inactive", "pending"}, Default: "active"},
			"verified": {Type: "boolean", Description: "Verification status", Default: true},
		},
	}
}

// enumsSchema has the five kinds of enum field (SEP-1330).
func enumsSchema() *mcp.ElicitationSchema {
	return &mcp.ElicitationSchema{
		Type: "object",
		Properties: map[string]*mcp.PrimitiveSchema{
			"untitledSingle": {Type: "string", Description: "Untitled single-select",
				Enum: []string{"option1", "option2", "option3"}},
			"titledSingle": {Type: "string", Description: "Titled single-select", OneOf: []mcp.EnumOption{
				{Const: "value1", Title: "First Option"}, {Const: "value2", Title: "Second Option"}, {Const: "value3", Title: "Third Option"},
			}},
			"legacyEnum": {Type: "string", Description: "Legacy titled enum",
				Enum: []string{"opt1", "opt2", "opt3"}, EnumNames: []string{"Option One", "Option Two", "Option Three"}},
			"untitledMulti": {Type: "array", Description: "Untitled multi-select",
				Items: &mcp.EnumItems{Type: "string", Enum: []string{"option1", "option2", "option3"}}},
			"titledMulti": {Type: "array", Description: "Titled multi-select", Items: &mcp.EnumItems{AnyOf: []mcp.EnumOption{
				{Const: "value1", Title: "First Choice"}, {Const: "value2", Title: "Second Choice"}, {Const: "value3", Title: "Third Choice"},
			}}},
		},
	}
}

// firstText returns the text of the first text block of content.
func firstText(content []*mcp.Content) string {
	for _, c := range content {
		if c.Type == mcp.ContentTypeText {
			return c.Text
		}
	}
	return ""
}
