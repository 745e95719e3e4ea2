package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// jsonSchema202012 is the input schema of json_schema_2020_12_tool, which
// the json-schema-2020-12 scenario expects in tools/list verbatim: $schema,
// $defs with an $anchor, $ref, allOf/anyOf, if/then/else and
// additionalProperties.
const jsonSchema202012 = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {
		"address": {
			"$anchor": "addressDef",
			"type": "object",
			"properties": {
				"street": {"type": "string"},
				"city": {"type": "string"}
			}
		}
	},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`

// jsonSchemaTool is json_schema_2020_12_tool.
func jsonSchemaTool() *mcp.ServerTool {
	return tool("json_schema_2020_12_tool", "A tool whose input schema uses JSON Schema 2020-12 keywords.",
		json.RawMessage(jsonSchema202012),
		func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			raw, _ := p.Arguments.(json.RawMessage)
			return textResult("Received: " + string(raw)), nil
		})
}

// reconnectionTool is test_reconnection (server-sse-polling): it closes the
// SSE stream of its own call, so the client must resume it with GET and
// Last-Event-ID to get the result. Where the stream cannot be resumed
// (stateless, or a JSON response), it simply returns.
func reconnectionTool() *mcp.ServerTool {
	return tool("test_reconnection", "Closes its SSE stream mid-call; the result arrives after the client reconnects.", nil,
		func(ctx context.Context, _ *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			if err := mcp.CloseSSEStream(ctx, 500*time.Millisecond); err != nil {
				return textResult("Reconnection test completed (stream not closed: " + err.Error() + ")"), nil
			}
			// Send the result only after the connection is gone, so it
			// reaches the client on the resumed stream.
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return nil, err
			}
			return textResult("Reconnection test completed"), nil
		})
}
