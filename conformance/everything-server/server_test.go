package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// connect connects a client speaking version to a fresh everything-server
// over in-memory transports. The client answers elicitations with answer,
// samples with "Paris" and has one root.
func connect(t *testing.T, version string, answer map[string]any) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, st)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient("test-client", "1.0.0", &mcp.ClientOptions{
		ProtocolVersion: version,
		ElicitationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			content := map[string]any{}
			for k := range p.RequestedSchema.Properties {
				if v, ok := answer[k]; ok {
					content[k] = v
				}
			}
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: content}, nil
		},
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the conformance suite tests it
		CreateMessageHandler: func(context.Context, *mcp.ClientSession, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "test", Content: []*mcp.Content{mcp.NewTextContent("Paris")}}, nil
		},
	})
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the conformance suite tests it
	client.AddRoots(&mcp.Root{URI: "file:///test/root", Name: "Test Root"})
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// text joins the text blocks of content.
func text(content []*mcp.Content) string {
	var parts []string
	for _, c := range content {
		if c.Type == mcp.ContentTypeText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "|")
}

func TestToolsLegacy(t *testing.T) {
	cs := connect(t, mcp.Version20251125, map[string]any{"username": "ann", "email": "ann@example.com"})
	tests := []struct {
		tool    string
		args    map[string]any
		want    string // substring of the text content
		isError bool
		types   []string // content types, in order; nil means not checked
	}{
		{tool: "test_simple_text", want: "This is a simple text response for testing.", types: []string{"text"}},
		{tool: "test_image_content", types: []string{"image"}},
		{tool: "test_audio_content", types: []string{"audio"}},
		{tool: "test_embedded_resource", types: []string{"resource"}},
		{tool: "test_multiple_content_types", want: "Multiple content types test:", types: []string{"text", "image", "resource"}},
		{tool: "test_error_handling", want: "This tool intentionally returns an error for testing", isError: true},
		{tool: "test_tool_with_logging", want: "Logging test completed"},
		{tool: "test_sampling", args: map[string]any{"prompt": "capital?"}, want: "LLM response: Paris"},
		{tool: "test_sampling", want: "missing required argument: prompt", isError: true},
		{tool: "test_elicitation", args: map[string]any{"message": "who?"}, want: `User response: action=accept, content={"email":"ann@example.com","username":"ann"}`},
		{tool: "test_x_mcp_header", args: map[string]any{"region": "us-west1"}, want: "region=us-west1"},
		{tool: "json_schema_2020_12_tool", args: map[string]any{"email": "a@b.c"}, want: "Received:"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), tt.tool, tt.args, nil)
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if res.IsError != tt.isError {
				t.Errorf("isError = %v, want %v (%s)", res.IsError, tt.isError, text(res.Content))
			}
			if !strings.Contains(text(res.Content), tt.want) {
				t.Errorf("text = %q, want it to contain %q", text(res.Content), tt.want)
			}
			if tt.types != nil {
				var got []string
				for _, c := range res.Content {
					got = append(got, c.Type)
				}
				if strings.Join(got, ",") != strings.Join(tt.types, ",") {
					t.Errorf("content types = %v, want %v", got, tt.types)
				}
			}
		})
	}
}

func TestAudioIsWAV(t *testing.T) {
	cs := connect(t, mcp.Version20251125, nil)
	res, err := cs.CallTool(context.Background(), "test_audio_content", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Content[0]
	if c.MIMEType != "audio/wav" || !strings.HasPrefix(string(c.Data), "RIFF") || string(c.Data[8:12]) != "WAVE" {
		t.Errorf("audio: mimeType %q, header %q", c.MIMEType, c.Data[:12])
	}
}

func TestJSONSchemaVerbatim(t *testing.T) {
	cs := connect(t, mcp.Version20251125, nil)
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name != "json_schema_2020_12_tool" {
			continue
		}
		var got, want any
		if err := json.Unmarshal(tool.InputSchema.(json.RawMessage), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(jsonSchema202012), &want); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("inputSchema in tools/list:\n%s\nwant\n%s", g, w)
		}
		return
	}
	t.Fatal("json_schema_2020_12_tool not listed")
}

func TestResourcesAndPrompts(t *testing.T) {
	cs := connect(t, mcp.Version20251125, nil)
	ctx := context.Background()
	reads := []struct{ uri, mimeType, text string }{
		{"test://static-text", "text/plain", "This is the content of the static text resource."},
		{"test://static-binary", "image/png", ""},
		{"test://template/123/data", "application/json", `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`},
	}
	for _, r := range reads {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.uri})
		if err != nil {
			t.Errorf("read %s: %v", r.uri, err)
			continue
		}
		c := res.Contents[0]
		if c.MIMEType != r.mimeType || c.Text != r.text || (r.text == "") != (len(c.Blob) > 0) {
			t.Errorf("read %s = %+v", r.uri, c)
		}
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nonexistent"}); err == nil {
		t.Error("reading an unknown resource succeeded")
	}

	prompts := []struct {
		name string
		args map[string]string
		want string
	}{
		{"test_simple_prompt", nil, "This is a simple prompt for testing."},
		{"test_prompt_with_arguments", map[string]string{"arg1": "a", "arg2": "b"}, "Prompt with arguments: arg1='a', arg2='b'"},
		{"test_prompt_with_embedded_resource", map[string]string{"resourceUri": "test://example-resource"}, "Please process the embedded resource above."},
		{"test_prompt_with_image", nil, "Please analyze the image above."},
	}
	for _, p := range prompts {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.name, Arguments: p.args})
		if err != nil {
			t.Errorf("get %s: %v", p.name, err)
			continue
		}
		var got []string
		for _, m := range res.Messages {
			got = append(got, text([]*mcp.Content{m.Content}))
		}
		if !strings.Contains(strings.Join(got, "|"), p.want) {
			t.Errorf("get %s = %q, want %q", p.name, got, p.want)
		}
	}

	comp, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: "test_prompt_with_arguments"},
		Argument: mcp.CompleteArgument{Name: "arg1", Value: "par"},
	})
	if err != nil {
		t.Fatalf("complete: %v", err)
	}
	if got := strings.Join(comp.Completion.Values, ","); got != "paris,park,party" {
		t.Errorf("completion values = %q", got)
	}
}

func TestInputRequiredModern(t *testing.T) {
	cs := connect(t, mcp.Version20260728, map[string]any{"name": "Alice", "color": "blue", "ok": true, "context": "ctx"})
	tests := []struct{ tool, want string }{
		{"test_input_required_result_elicitation", "Hello, Alice!"},
		{"test_input_required_result_sampling", "Sampling result: Paris"},
		{"test_input_required_result_list_roots", "Client roots: [file:///test/root]"},
		{"test_input_required_result_request_state", "state-ok"},
		{"test_input_required_result_multiple_inputs", "name=Alice; greeting=Paris; roots=[file:///test/root]"},
		{"test_input_required_result_multi_round", "Hello, Alice! Your favorite color is blue."},
		{"test_input_required_result_capabilities", "name=Alice; greeting=Paris; roots=[file:///test/root]"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), tt.tool, nil, nil)
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if got := text(res.Content); !strings.Contains(got, tt.want) || res.IsError {
				t.Errorf("result %q (isError %v), want %q", got, res.IsError, tt.want)
			}
		})
	}
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "test_input_required_result_prompt"})
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	if got := text([]*mcp.Content{res.Messages[0].Content}); got != "Prompt rendered with context: ctx" {
		t.Errorf("prompt text %q", got)
	}
}

func TestMissingCapabilityModern(t *testing.T) {
	// A client without sampling: the SDK must refuse with -32021.
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient("c", "1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20260728}).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, "test_missing_capability", nil, nil)
	var werr *mcp.JSONRPCError
	if !errors.As(err, &werr) || werr.Code != mcp.CodeMissingRequiredClientCapability {
		t.Errorf("CallTool error = %v, want code %d", err, mcp.CodeMissingRequiredClientCapability)
	}
}
