package mcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// prefixCompleter completes from a fixed list by prefix.
func prefixCompleter(values ...string) Completer {
	return func(_ context.Context, value string, _ map[string]string) ([]string, error) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, value) {
				out = append(out, v)
			}
		}
		return out, nil
	}
}

// frameworks completes a framework for the language already chosen.
func frameworks(_ context.Context, value string, resolved map[string]string) ([]string, error) {
	byLanguage := map[string][]string{"python": {"flask", "fastapi", "django"}, "go": {"gin", "echo"}}
	lang, ok := resolved["language"]
	if !ok {
		return nil, newError(CodeInvalidParams, "choose a language first")
	}
	return prefixCompleter(byLanguage[lang]...)(context.Background(), value, nil)
}

// languagePrompt has two completed arguments and one without a completer.
func languagePrompt() *ServerPrompt {
	type args struct {
		Language  string `json:"language"`
		Framework string `json:"framework,omitempty"`
		Notes     string `json:"notes,omitempty"`
	}
	return NewPrompt("scaffold", "Scaffolds a project",
		func(_ context.Context, _ *ServerSession, in args) (*GetPromptResult, error) {
			return &GetPromptResult{Messages: []*PromptMessage{{Role: RoleUser, Content: NewTextContent(in.Language + "/" + in.Framework)}}}, nil
		},
		Argument("language", CompleteWith(prefixCompleter("python", "pytorch", "pyside", "go", "rust"))),
		Argument("framework", CompleteWith(frameworks)))
}

// completionTests are completion/complete requests for languagePrompt and
// what they get.
var completionTests = []struct {
	name    string
	params  *CompleteParams
	want    CompletionResultDetails
	code    ErrorCode
	message string
}{
	{
		name:   "prefix",
		params: &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "language", Value: "py"}},
		want:   CompletionResultDetails{Values: []string{"python", "pytorch", "pyside"}, Total: 3},
	},
	{
		name: "context arguments",
		params: &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "framework", Value: "fla"},
			Context: &CompleteContext{Arguments: map[string]string{"language": "python"}}},
		want: CompletionResultDetails{Values: []string{"flask"}, Total: 1},
	},
	{
		name:   "no match",
		params: &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "language", Value: "zz"}},
		want:   CompletionResultDetails{Values: []string{}},
	},
	{
		name:   "argument without completer",
		params: &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "notes", Value: "a"}},
		want:   CompletionResultDetails{Values: []string{}},
	},
	{
		name:    "completer error keeps its code",
		params:  &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "framework", Value: "f"}},
		code:    CodeInvalidParams,
		message: "choose a language first",
	},
	{
		name:    "unknown prompt",
		params:  &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "nope"}, Argument: CompleteArgument{Name: "language"}},
		code:    CodeInvalidParams,
		message: "Unknown prompt: nope",
	},
	{
		name:    "undeclared argument",
		params:  &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}, Argument: CompleteArgument{Name: "lang"}},
		code:    CodeInvalidParams,
		message: `prompt scaffold has no argument "lang"`,
	},
	{
		name:    "unknown resource template",
		params:  &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypeResource, URI: "file:///{nope}"}, Argument: CompleteArgument{Name: "nope"}},
		code:    CodeInvalidParams,
		message: "Unknown resource template: file:///{nope}",
	},
	{
		name:    "bad ref type",
		params:  &CompleteParams{Ref: &CompleteReference{Type: "ref/tool", Name: "x"}, Argument: CompleteArgument{Name: "a"}},
		code:    CodeInvalidParams,
		message: `unknown ref type "ref/tool"`,
	},
	{
		name:    "missing ref",
		params:  &CompleteParams{Argument: CompleteArgument{Name: "a"}},
		code:    CodeInvalidParams,
		message: "missing ref",
	},
	{
		name:    "missing argument name",
		params:  &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "scaffold"}},
		code:    CodeInvalidParams,
		message: "missing argument name",
	},
}

func TestCompletionInBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddPrompts(languagePrompt())
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		if cs.ServerCapabilities().Completions == nil {
			t.Fatal("server with completers does not declare completions")
		}
		for _, tt := range completionTests {
			t.Run(tt.name, func(t *testing.T) {
				res, err := cs.Complete(context.Background(), tt.params)
				if tt.code != 0 {
					wantCode(t, err, tt.code, tt.message)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(res.Completion, tt.want) {
					t.Fatalf("completion %+v, want %+v", res.Completion, tt.want)
				}
			})
		}
	})
}

func TestCompletionDetails(t *testing.T) {
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("v%03d", i)
		}
		return out
	}
	tests := []struct {
		in      []string
		values  int
		total   int
		hasMore bool
	}{
		{nil, 0, 0, false},
		{many(1), 1, 1, false},
		{many(100), 100, 100, false},
		{many(101), 100, 101, true},
		{many(250), 100, 250, true},
	}
	for _, tt := range tests {
		d := completionDetails(tt.in)
		if d.Values == nil || len(d.Values) != tt.values || d.Total != tt.total || d.HasMore != tt.hasMore {
			t.Errorf("completionDetails(%d values) = %d values (nil: %t), total %d, hasMore %t; want %d, %d, %t",
				len(tt.in), len(d.Values), d.Values == nil, d.Total, d.HasMore, tt.values, tt.total, tt.hasMore)
		}
		if tt.values > 0 && d.Values[0] != "v000" {
			t.Errorf("completionDetails kept %q first, want the most relevant (first) value", d.Values[0])
		}
	}
	// Appending to the capped values must not overwrite the caller's slice.
	in := many(150)
	d := completionDetails(in)
	_ = append(d.Values, "x")
	if in[100] != "v100" {
		t.Error("capped values share spare capacity with the completer's slice")
	}
}

func TestCompletionOfTemplateVariables(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		handler := func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
			return nil, nil
		}
		server.AddResourceTemplates(&ServerResourceTemplate{
			Template: &ResourceTemplate{URITemplate: "repo://{owner}/{name}", Name: "repo"},
			Handler:  handler,
			Completers: map[string]Completer{
				"owner": prefixCompleter("golang", "google"),
				"name": func(_ context.Context, value string, resolved map[string]string) ([]string, error) {
					return prefixCompleter(resolved["owner"]+"-tools", resolved["owner"]+"-net")(context.Background(), value, nil)
				},
			},
		}, &ServerResourceTemplate{Template: &ResourceTemplate{URITemplate: "doc://{id}", Name: "doc"}, Handler: handler})
		server.AddResources(&ServerResource{Resource: &Resource{URI: "repo://readme", Name: "readme"}, Handler: handler})
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		if cs.ServerCapabilities().Completions == nil {
			t.Fatal("server with template completers does not declare completions")
		}
		ctx := context.Background()
		ref := &CompleteReference{Type: ReferenceTypeResource, URI: "repo://{owner}/{name}"}
		tests := []struct {
			params *CompleteParams
			want   []string
		}{
			{&CompleteParams{Ref: ref, Argument: CompleteArgument{Name: "owner", Value: "go"}}, []string{"golang", "google"}},
			{&CompleteParams{Ref: ref, Argument: CompleteArgument{Name: "name", Value: "golang-n"}, Context: &CompleteContext{Arguments: map[string]string{"owner": "golang"}}}, []string{"golang-net"}},
			// A template without completers, and a plain resource (which
			// has no variables): nothing to complete, no error.
			{&CompleteParams{Ref: &CompleteReference{Type: ReferenceTypeResource, URI: "doc://{id}"}, Argument: CompleteArgument{Name: "id", Value: "1"}}, []string{}},
			{&CompleteParams{Ref: &CompleteReference{Type: ReferenceTypeResource, URI: "repo://readme"}, Argument: CompleteArgument{Name: "x"}}, []string{}},
		}
		for _, tt := range tests {
			res, err := cs.Complete(ctx, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Completion.Values, tt.want) {
				t.Errorf("complete %s = %v, want %v", tt.params.Argument.Name, res.Completion.Values, tt.want)
			}
		}
	})
}

func TestCompletionsCapability(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddPrompts(codeReviewPrompt()) // no completers
	if caps := server.capabilities(); caps.Completions != nil {
		t.Fatal("server without completers declares completions")
	}
	cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: Version20251125})
	_, err := cs.Complete(context.Background(), &CompleteParams{Ref: &CompleteReference{Type: ReferenceTypePrompt, Name: "code_review"}, Argument: CompleteArgument{Name: "code"}})
	if !errors.Is(err, ErrNotSupported) {
		t.Fatalf("Complete against a server without the capability: %v, want ErrNotSupported", err)
	}
	server.AddPrompts(languagePrompt())
	if caps := server.capabilities(); caps.Completions == nil {
		t.Fatal("server with a completer does not declare completions")
	}
	server.RemovePrompts("scaffold")
	if caps := server.capabilities(); caps.Completions != nil {
		t.Fatal("completions still declared after the only completer was removed")
	}
	handler := func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
		return nil, nil
	}
	server.AddResourceTemplates(&ServerResourceTemplate{Template: &ResourceTemplate{URITemplate: "doc://{id}", Name: "doc"}, Handler: handler,
		Completers: map[string]Completer{"id": prefixCompleter("1", "2")}})
	if caps := server.capabilities(); caps.Completions == nil {
		t.Fatal("server with a template completer does not declare completions")
	}
}
