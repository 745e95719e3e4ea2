package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// A scenario runs one conformance scenario against the server at env.url.
type scenario func(ctx context.Context, env *scenarioEnv) error

// scenarios maps each scenario name to what the client does for it.
var scenarios = map[string]scenario{
	// Both eras.
	"initialize":                          listTools,
	"tools_call":                          callAddNumbers,
	"elicitation-sep1034-client-defaults": elicitationDefaults,
	"sse-retry":                           callReconnection,
	"json-schema-2020-12-preservation":    echoSchema,

	// 2026-07-28.
	"request-metadata":              listTools,
	"sep-2322-client-request-state": requestState,
	"http-standard-headers":         standardHeaders,
	"http-custom-headers":           customHeaders,
	"http-invalid-tool-headers":     invalidToolHeaders,
	"json-schema-ref-no-deref":      listTools,
}

func init() {
	for _, name := range authScenarios {
		scenarios[name] = authenticated
	}
	withSkills(scenarios)
}

// connect connects a client with the given options, turned on for the
// extensions enable names, to the scenario's server, at the protocol
// version under test when the suite names one.
func connect(ctx context.Context, env *scenarioEnv, opts *mcp.ClientOptions, enable ...func(*mcp.Client) *mcp.Client) (*mcp.ClientSession, error) {
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = env.version
	}
	client := mcp.NewClient("gomcp-everything-client", "1.0.0", opts)
	for _, e := range enable { // an extension's Enable function, such as skills.EnableClient
		client = e(client)
	}
	var topts *mcp.StreamableClientTransportOptions
	if env.httpClient != nil {
		topts = &mcp.StreamableClientTransportOptions{HTTPClient: env.httpClient}
	}
	cs, err := client.Connect(ctx, mcp.NewStreamableClientTransport(env.url, topts))
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	log.Printf("connected: protocol %s, server %v", cs.ProtocolVersion(), cs.ServerInfo())
	return cs, nil
}

// tools lists every tool of the server.
func tools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// call calls a tool and fails on a protocol error or a tool error.
func call(ctx context.Context, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, error) {
	res, err := cs.CallTool(ctx, name, args, nil)
	if err != nil {
		return nil, fmt.Errorf("tools/call %s: %w", name, err)
	}
	log.Printf("tools/call %s: %s", name, resultText(res))
	if res.IsError {
		return nil, fmt.Errorf("tools/call %s: tool error: %s", name, resultText(res))
	}
	return res, nil
}

// resultText joins the text blocks of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == mcp.ContentTypeText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, " ")
}

// listTools connects and lists the server's tools (initialize,
// request-metadata, json-schema-ref-no-deref).
func listTools(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	ts, err := tools(ctx, cs)
	if err != nil {
		return err
	}
	log.Printf("%d tools", len(ts))
	return nil
}

// callAddNumbers lists the tools and calls add_numbers (tools_call).
func callAddNumbers(ctx context.Context, env *scenarioEnv) error {
	return listAndCall(ctx, env, nil, "add_numbers", map[string]any{"a": 5, "b": 3})
}

// elicitationDefaults accepts an elicitation without content, relying on
// the SDK to fill in the requested schema's defaults
// (elicitation-sep1034-client-defaults).
func elicitationDefaults(ctx context.Context, env *scenarioEnv) error {
	return listAndCall(ctx, env, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{}}, nil
		},
	}, "test_client_elicitation_defaults", map[string]any{})
}

// callReconnection calls test_reconnection, whose SSE stream the server
// closes; the SDK must wait the server's retry interval and resume it with
// Last-Event-ID (sse-retry).
func callReconnection(ctx context.Context, env *scenarioEnv) error {
	return listAndCall(ctx, env, nil, "test_reconnection", map[string]any{})
}

// listAndCall connects with opts, lists the tools and calls the tool name
// with args.
func listAndCall(ctx context.Context, env *scenarioEnv, opts *mcp.ClientOptions, name string, args any) error {
	cs, err := connect(ctx, env, opts)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := tools(ctx, cs); err != nil {
		return err
	}
	_, err = call(ctx, cs, name, args)
	return err
}

// echoSchema sends the input schema of json_schema_2020_12_tool, exactly as
// received, back through json_schema_echo
// (json-schema-2020-12-preservation).
func echoSchema(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	ts, err := tools(ctx, cs)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.Name == "json_schema_2020_12_tool" {
			schema, ok := t.InputSchema.(json.RawMessage)
			if !ok {
				return fmt.Errorf("input schema of %s decoded as %T, want json.RawMessage", t.Name, t.InputSchema)
			}
			_, err := call(ctx, cs, "json_schema_echo", map[string]any{"schema": schema})
			return err
		}
	}
	return errors.New("the server has no json_schema_2020_12_tool")
}
