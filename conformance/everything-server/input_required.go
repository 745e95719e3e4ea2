package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// The tools and the prompt of the input-required-result-* scenarios
// (2026-07-28, SEP-2322). They ask through ServerSession.Elicit,
// CreateMessage and ListRoots like any handler; in 2026-07-28 the SDK turns
// each question into an input-required result, signs the answers gathered
// so far into requestState, and runs the handler again on the retry.

// inputRequiredTools returns the tools of the input-required-result-*
// scenarios.
func inputRequiredTools() []*mcp.ServerTool {
	return []*mcp.ServerTool{
		tool("test_input_required_result_elicitation", "Asks the user's name, then greets them.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				name, err := askName(mcp.InputKey(ctx, "user_name"), ss, "What is your name?")
				if err != nil {
					return nil, err
				}
				return textResult("Hello, " + name + "!"), nil
			}),
		tool("test_input_required_result_sampling", "Asks the client's model for the capital of France.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				text, err := askModel(mcp.InputKey(ctx, "capital_question"), ss, "What is the capital of France?", 100)
				if err != nil {
					return nil, err
				}
				return textResult("Sampling result: " + text), nil
			}),
		tool("test_input_required_result_list_roots", "Asks the client for its roots.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				roots, err := askRoots(mcp.InputKey(ctx, "client_roots"), ss)
				if err != nil {
					return nil, err
				}
				return textResult("Client roots: " + roots), nil
			}),
		tool("test_input_required_result_request_state", "Asks for a confirmation carried through requestState.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				ok, err := askConfirm(mcp.InputKey(ctx, "confirm"), ss)
				if err != nil {
					return nil, err
				}
				// The SDK rejects a requestState that fails its HMAC check
				// before the handler runs again, so reaching here on a retry
				// means the state was verified.
				return textResult(fmt.Sprintf("state-ok: confirmed=%v", ok)), nil
			}),
		tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots in one round.", nil,
			multipleInputs),
		tool("test_input_required_result_multi_round", "Asks for a name, then for a favorite color.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				name, err := askName(mcp.InputKey(ctx, "step1"), ss, "Step 1: What is your name?")
				if err != nil {
					return nil, err
				}
				color, err := askString(mcp.InputKey(ctx, "step2"), ss, "Step 2: What is your favorite color?", "color")
				if err != nil {
					return nil, err
				}
				return textResult(fmt.Sprintf("Hello, %s! Your favorite color is %s.", name, color)), nil
			}),
		tool("test_input_required_result_tampered_state", "Asks for a confirmation; a tampered requestState is refused.", nil,
			func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				ok, err := askConfirm(mcp.InputKey(ctx, "confirm"), ss)
				if err != nil {
					return nil, err
				}
				return textResult(fmt.Sprintf("state verified: confirmed=%v", ok)), nil
			}),
		tool("test_input_required_result_capabilities", "Asks only for the inputs the client's capabilities allow.", nil,
			inputsByCapability),
	}
}

// multipleInputs asks three questions of different kinds in one round:
// each ask that has no answer yet adds its input request, and the handler
// returns the first such error once all three are asked.
func multipleInputs(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	name, err1 := askName(mcp.InputKey(ctx, "user_name"), ss, "What is your name?")
	greeting, err2 := askModel(mcp.InputKey(ctx, "greeting"), ss, "Generate a greeting", 50)
	roots, err3 := askRoots(mcp.InputKey(ctx, "client_roots"), ss)
	if err := firstErr(err1, err2, err3); err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("name=%s; greeting=%s; roots=%s", name, greeting, roots)), nil
}

// inputsByCapability asks, in one round, only for the inputs whose
// capability the request declared.
func inputsByCapability(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	caps := ss.ClientCapabilities()
	var parts []string
	var errs []error
	if caps.Elicitation != nil {
		name, err := askName(mcp.InputKey(ctx, "user_name"), ss, "What is your name?")
		parts, errs = append(parts, "name="+name), append(errs, err)
	}
	if caps.Sampling != nil {
		greeting, err := askModel(mcp.InputKey(ctx, "greeting"), ss, "Generate a greeting", 50)
		parts, errs = append(parts, "greeting="+greeting), append(errs, err)
	}
	if caps.Roots != nil {
		roots, err := askRoots(mcp.InputKey(ctx, "client_roots"), ss)
		parts, errs = append(parts, "roots="+roots), append(errs, err)
	}
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return textResult("the client declared no capability to ask through"), nil
	}
	return textResult(strings.Join(parts, "; ")), nil
}

// askName elicits a required string "name".
func askName(ctx context.Context, ss *mcp.ServerSession, message string) (string, error) {
	return askString(ctx, ss, message, "name")
}

// askString elicits one required string field and returns it.
func askString(ctx context.Context, ss *mcp.ServerSession, message, field string) (string, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: message,
		RequestedSchema: &mcp.ElicitationSchema{
			Type:       "object",
			Properties: map[string]*mcp.PrimitiveSchema{field: {Type: "string"}},
			Required:   []string{field},
		},
	})
	if err != nil {
		return "", err
	}
	if res.Action != mcp.ElicitActionAccept {
		return "(" + res.Action + ")", nil
	}
	return fmt.Sprint(res.Content[field]), nil
}

// askConfirm elicits a required boolean "ok".
func askConfirm(ctx context.Context, ss *mcp.ServerSession) (bool, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: "Please confirm",
		RequestedSchema: &mcp.ElicitationSchema{
			Type:       "object",
			Properties: map[string]*mcp.PrimitiveSchema{"ok": {Type: "boolean"}},
			Required:   []string{"ok"},
		},
	})
	if err != nil {
		return false, err
	}
	ok, _ := res.Content["ok"].(bool)
	return res.Action == mcp.ElicitActionAccept && ok, nil
}

// askModel asks the client's model to answer text.
func askModel(ctx context.Context, ss *mcp.ServerSession, text string, maxTokens int64) (string, error) {
	//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the conformance suite tests it
	res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent(text)}}},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return "", err
	}
	return firstText(res.Content), nil
}

// askRoots asks the client for its roots and lists their URIs.
func askRoots(ctx context.Context, ss *mcp.ServerSession) (string, error) {
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the conformance suite tests it
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return "", err
	}
	uris := make([]string, len(res.Roots))
	for i, r := range res.Roots {
		uris[i] = r.URI
	}
	return "[" + strings.Join(uris, ", ") + "]", nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
