package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// twoQuestionTool asks the client two named questions in turn and reports
// both answers.
func twoQuestionTool() *ServerTool {
	ask := func(ctx context.Context, ss *ServerSession, key string) (string, error) {
		res, err := ss.Elicit(InputKey(ctx, key), &ElicitParams{Message: key + "?", RequestedSchema: &ElicitationSchema{
			Type:       "object",
			Properties: map[string]*PrimitiveSchema{"v": {Type: "string"}},
		}})
		if err != nil {
			return "", err
		}
		v, _ := res.Content["v"].(string)
		return v, nil
	}
	return &ServerTool{
		Tool: &Tool{Name: "two", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			first, err := ask(ctx, ss, "first")
			if err != nil {
				return nil, err
			}
			second, err := ask(ctx, ss, "second")
			if err != nil {
				return nil, err
			}
			return &CallToolResult{Content: []*Content{NewTextContent("first=" + first + " second=" + second)}}, nil
		},
	}
}

// mrtrCall is the body of a 2026-07-28 tools/call of "two" with the
// elicitation capability, the given input responses and request state.
func mrtrCall(id int, answers map[string]string, state string) string {
	params := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}},"name":"two"`
	if len(answers) > 0 {
		resp := map[string]any{}
		for k, v := range answers {
			resp[k] = map[string]any{"action": "accept", "content": map[string]any{"v": v}}
		}
		b, _ := json.Marshal(resp)
		params += `,"inputResponses":` + string(b)
	}
	if state != "" {
		params += fmt.Sprintf(`,"requestState":%q`, state)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s}}`, id, params)
}

// mrtrRound sends one round and returns the input requests' keys and the
// request state of an input-required result, or the final text.
func mrtrRound(t *testing.T, c *rawClient, answers map[string]string, state string) (asked []string, nextState, text string) {
	t.Helper()
	resp := c.post(mrtrCall(1, answers, state), modernHeaders(MethodCallTool, "two"))
	msgs := readMessages(t, resp)
	if resp.StatusCode != http.StatusOK || len(msgs) != 1 {
		t.Fatalf("%s %v", resp.Status, msgs)
	}
	res, _ := msgs[0]["result"].(map[string]any)
	if res == nil {
		t.Fatalf("no result: %v", msgs[0])
	}
	if res["resultType"] == "input_required" {
		reqs, _ := res["inputRequests"].(map[string]any)
		for k := range reqs {
			asked = append(asked, k)
		}
		nextState, _ = res["requestState"].(string)
		return asked, nextState, ""
	}
	return nil, "", resultText(msgs[0])
}

func TestInputResponsesOnlyForIssuedRequests(t *testing.T) {
	server, _, ts, _ := newHTTPTest(t, nil, nil)
	server.AddTools(twoQuestionTool())
	c := &rawClient{t: t, url: ts.URL}

	// An answer to a question never asked, without any requestState, is
	// ignored: the server asks its first question.
	asked, state, _ := mrtrRound(t, c, map[string]string{"first": "forged", "second": "forged"}, "")
	if len(asked) != 1 || asked[0] != "first" || state == "" {
		t.Fatalf("unsolicited answers: asked %v, want [first]", asked)
	}
	// With the state that asked "first", an answer to "second" (not yet
	// asked) is ignored too: the server asks "second".
	asked, state, _ = mrtrRound(t, c, map[string]string{"first": "A", "second": "forged"}, state)
	if len(asked) != 1 || asked[0] != "second" {
		t.Fatalf("answer to an unasked question accepted: asked %v, want [second]", asked)
	}
	_, _, text := mrtrRound(t, c, map[string]string{"second": "B"}, state)
	if text != "first=A second=B" {
		t.Fatalf("final result %q", text)
	}
}

func TestSealedAnswersCannotBeReplaced(t *testing.T) {
	server, _, ts, _ := newHTTPTest(t, nil, nil)
	server.AddTools(twoQuestionTool())
	c := &rawClient{t: t, url: ts.URL}
	_, state, _ := mrtrRound(t, c, nil, "")
	asked, state, _ := mrtrRound(t, c, map[string]string{"first": "A"}, state)
	if len(asked) != 1 || asked[0] != "second" {
		t.Fatalf("asked %v, want [second]", asked)
	}
	// The state now seals first=A; the client tries to rewrite it.
	_, _, text := mrtrRound(t, c, map[string]string{"first": "EVIL", "second": "B"}, state)
	if text != "first=A second=B" {
		t.Fatalf("sealed answer replaced: %q, want first=A second=B", text)
	}
}

// TestRequestStateKeyRotation: a state minted with a key verifies on an
// instance that lists that key as previous, and on none that does not
// know it; states are always minted with the current key.
func TestRequestStateKeyRotation(t *testing.T) {
	k1, k2, k3 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32)
	old := NewServer("s", "v1", &ServerOptions{RequestStateKey: k1})
	rotated := NewServer("s", "v1", &ServerOptions{RequestStateKey: k2, PreviousRequestStateKeys: [][]byte{k3, k1}})
	stranger := NewServer("s", "v1", &ServerOptions{RequestStateKey: k3})

	tests := []struct {
		name    string
		minter  *Server
		checker *Server
		wantErr string
	}{
		{"same key", old, old, ""},
		{"previous key accepted", old, rotated, ""},
		{"current key minted", rotated, rotated, ""},
		{"new key unknown to an old instance", rotated, old, "signature does not match"},
		{"unrelated key", old, stranger, "signature does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, err := tt.minter.sealState("tools/call", "d", nil, []string{"q"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = tt.checker.openState(state, "tools/call", "d")
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("openState: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("openState = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// FuzzValidSessionID: ids accepted for a store lookup never hold a byte
// outside the safe set, whatever the client sends.
func FuzzValidSessionID(f *testing.F) {
	for _, s := range []string{"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "a:b", "*", "", strings.Repeat("A", 200), "x\r\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if !validSessionID(id) {
			return
		}
		if len(id) > maxSessionIDLen || strings.ContainsAny(id, ":*?[]{} \r\n\t/\\") {
			t.Fatalf("accepted %q", id)
		}
	})
}
