package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

// The scenarios of protocol 2026-07-28. What they check happens inside the
// SDK: the per-request _meta, the Mcp-* headers, the input-required retries
// and the filtering of tools with invalid x-mcp-header annotations. The
// client only makes the calls.

// requestState makes the calls of sep-2322-client-request-state. The
// server answers them with input-required results; the SDK runs the
// elicitation handler and retries, echoing requestState exactly when the
// server sent one.
func requestState(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"confirmed": true}}, nil
		},
	})
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := tools(ctx, cs); err != nil {
		return err
	}
	var errs []error
	for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"} {
		if _, err := call(ctx, cs, name, map[string]any{}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// standardHeaders calls every tool, reads every resource and gets every
// prompt, so that each kind of request shows its Mcp-Method and Mcp-Name
// headers (http-standard-headers).
func standardHeaders(ctx context.Context, env *scenarioEnv) error {
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
		if _, err := call(ctx, cs, t.Name, map[string]any{}); err != nil {
			return err
		}
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return fmt.Errorf("resources/list: %w", err)
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI}); err != nil {
			return fmt.Errorf("resources/read %s: %w", r.URI, err)
		}
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return fmt.Errorf("prompts/list: %w", err)
		}
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name}); err != nil {
			return fmt.Errorf("prompts/get %s: %w", p.Name, err)
		}
	}
	return nil
}

// customHeaders makes the tool calls listed in the context's toolCalls; the
// SDK mirrors the x-mcp-header arguments into Mcp-Param-* headers
// (http-custom-headers).
func customHeaders(ctx context.Context, env *scenarioEnv) error {
	var calls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	raw, ok := env.context["toolCalls"]
	if !ok {
		return errors.New("MCP_CONFORMANCE_CONTEXT has no toolCalls")
	}
	if err := json.Unmarshal(raw, &calls); err != nil {
		return fmt.Errorf("context toolCalls: %w", err)
	}
	cs, err := connect(ctx, env, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := tools(ctx, cs); err != nil {
		return err
	}
	for _, c := range calls {
		if _, err := call(ctx, cs, c.Name, c.Arguments); err != nil {
			return err
		}
	}
	return nil
}

// invalidToolHeaders calls every tool the SDK kept after dropping those
// with invalid x-mcp-header annotations (http-invalid-tool-headers).
func invalidToolHeaders(ctx context.Context, env *scenarioEnv) error {
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
		log.Printf("kept tool %s", t.Name)
		if _, err := call(ctx, cs, t.Name, map[string]any{"region": "us-west1"}); err != nil {
			return err
		}
	}
	return nil
}
