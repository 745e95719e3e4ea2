package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/gomcp/sdk/internal/goldentest"
	"strings"
	"testing"
)

// askingTool asks the client for its roots, a sampled message and an
// elicited form, then reports what it got.
func askingTool() *ServerTool {
	return &ServerTool{
		Tool: &Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			roots, err := ss.ListRoots(ctx, nil)
			if err != nil {
				return nil, err
			}
			msg, err := ss.CreateMessage(ctx, &CreateMessageParams{MaxTokens: 10, Messages: []*SamplingMessage{{Role: "user", Content: []*Content{NewTextContent("2+2?")}}}})
			if err != nil {
				return nil, err
			}
			form, err := ss.Elicit(InputKey(ctx, "user_name"), &ElicitParams{Message: "Your name?", RequestedSchema: &ElicitationSchema{
				Type:       "object",
				Properties: map[string]*PrimitiveSchema{"name": {Type: "string"}},
				Required:   []string{"name"},
			}})
			if err != nil {
				return nil, err
			}
			text := roots.Roots[0].URI + " " + msg.Content[0].Text + " " + form.Action + ":" + form.Content["name"].(string)
			return &CallToolResult{Content: []*Content{NewTextContent(text)}}, nil
		},
	}
}

func askingClientOptions(version string, name string) *ClientOptions {
	return &ClientOptions{
		ProtocolVersion: version,
		// askingTool lists the roots, which the client may have none of.
		Capabilities: &ClientCapabilities{Roots: &RootsCapability{ListChanged: true}},
		CreateMessageHandler: func(ctx context.Context, cs *ClientSession, p *CreateMessageParams) (*CreateMessageResult, error) {
			return &CreateMessageResult{Role: "assistant", Model: "test", Content: []*Content{NewTextContent("4")}}, nil
		},
		ElicitationHandler: func(ctx context.Context, cs *ClientSession, p *ElicitParams) (*ElicitResult, error) {
			return &ElicitResult{Action: "accept", Content: map[string]any{"name": name}}, nil
		},
	}
}

func TestServerAsksClientInBothEras(t *testing.T) {
	for _, version := range []string{Version20260728, Version20251125} {
		t.Run(version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.AddTools(askingTool())
			client := NewClient("c", "v1", askingClientOptions(version, "Ada"))
			client.AddRoots(&Root{URI: "file:///work", Name: "work"})
			ct, st := NewInMemoryTransports()
			ss, _ := server.Connect(context.Background(), st)
			defer ss.Close()
			cs, err := client.Connect(context.Background(), ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), "ask", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; res.IsError || got != "file:///work 4 accept:Ada" {
				t.Fatalf("result %q (isError %v)", got, res.IsError)
			}
		})
	}
}

func TestElicitationAnswerIsValidated(t *testing.T) {
	for _, version := range []string{Version20260728, Version20251125} {
		t.Run(version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.AddTools(askingTool())
			opts := askingClientOptions(version, "")
			opts.ElicitationHandler = func(ctx context.Context, cs *ClientSession, p *ElicitParams) (*ElicitResult, error) {
				return &ElicitResult{Action: "accept", Content: map[string]any{"name": 42}}, nil
			}
			cs, _ := connect(t, server, opts)
			res, err := cs.CallTool(context.Background(), "ask", nil, nil)
			if err != nil {
				var werr *JSONRPCError
				if errors.As(err, &werr) && werr.Code == CodeInvalidParams {
					return
				}
				t.Fatal(err)
			}
			if !res.IsError || !strings.Contains(res.Content[0].Text, "requested schema") {
				t.Fatalf("invalid elicitation answer accepted: %+v", res.Content[0])
			}
		})
	}
}

func TestMissingClientCapability(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(askingTool())
	cs, _ := connect(t, server, &ClientOptions{Capabilities: &ClientCapabilities{Roots: &RootsCapability{}}})
	_, err := cs.CallTool(context.Background(), "ask", nil, nil)
	var werr *JSONRPCError
	if !errors.As(err, &werr) || werr.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("sampling without the capability: %v, want -32021", err)
	}
}

func TestTamperedRequestStateIsRefused(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(askingTool())
	cs, _ := connect(t, server, nil)
	state, err := server.sealState(MethodCallTool, paramsDigest(&CallToolParams{Name: "ask"}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{
		"tampered":      state[:len(state)-2] + "AA",
		"other request": mustSeal(t, server, "other"),
		"garbage":       "xyz",
	} {
		err := cs.Call(context.Background(), MethodCallTool, &CallToolParams{Name: "ask", RequestState: s}, new(CallToolResult))
		var werr *JSONRPCError
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams || !strings.Contains(werr.Message, "requestState") {
			t.Errorf("%s state: %v", name, err)
		}
	}
}

func mustSeal(t *testing.T, s *Server, tool string) string {
	state, err := s.sealState(MethodCallTool, paramsDigest(&CallToolParams{Name: tool}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return state
}

func TestInputKeyNamesTheInputRequest(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(askingTool())
	client := NewClient("c", "v1", askingClientOptions("", "Ada"))
	client.AddRoots(&Root{URI: "file:///work"})
	ct, st := NewInMemoryTransports()
	ss, _ := server.Connect(context.Background(), st)
	defer ss.Close()
	var log goldentest.Buffer
	cs, err := client.Connect(context.Background(), NewLoggingTransport(ct, &log))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), "ask", nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"inputRequests":{"input-1":{"method":"roots/list"`,
		`"inputRequests":{"input-2":{"method":"sampling/createMessage"`,
		`"inputRequests":{"user_name":{"method":"elicitation/create"`,
		`"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}}`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("exchange lacks %s", want)
		}
	}
}

func TestClientFillsElicitationDefaults(t *testing.T) {
	server := NewServer("s", "v1", nil)
	got := make(chan map[string]any, 1)
	server.AddTools(&ServerTool{
		Tool: &Tool{Name: "prefs", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			res, err := ss.Elicit(ctx, &ElicitParams{Message: "Preferences?", RequestedSchema: &ElicitationSchema{
				Type: "object",
				Properties: map[string]*PrimitiveSchema{
					"name":  {Type: "string", Default: "anonymous"},
					"count": {Type: "integer", Default: 3.0},
					"email": {Type: "string"},
				},
			}})
			if err != nil {
				return nil, err
			}
			got <- res.Content
			return &CallToolResult{}, nil
		},
	})
	cs, _ := connect(t, server, &ClientOptions{ElicitationHandler: func(ctx context.Context, cs *ClientSession, p *ElicitParams) (*ElicitResult, error) {
		return &ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
	}})
	if _, err := cs.CallTool(context.Background(), "prefs", nil, nil); err != nil {
		t.Fatal(err)
	}
	c := <-got
	if c["name"] != "Ada" || c["count"] != 3.0 || c["email"] != nil {
		t.Fatalf("content %v: want the user's name kept, count defaulted, email absent", c)
	}
}
