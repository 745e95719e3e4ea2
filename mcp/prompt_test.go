package mcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/jsonschema"
)

type codeReviewArgs struct {
	Code     string `json:"code"`
	Language string `json:"language,omitempty"`
}

func codeReviewPrompt() *ServerPrompt {
	return NewPrompt("code_review", "Asks the LLM to analyze code quality and suggest improvements",
		func(ctx context.Context, ss *ServerSession, in codeReviewArgs) (*GetPromptResult, error) {
			text := "Please review this " + in.Language + " code:\n" + in.Code
			if in.Language == "" {
				text = "Please review this code:\n" + in.Code
			}
			return &GetPromptResult{
				Description: "Code review prompt",
				Messages:    []*PromptMessage{{Role: RoleUser, Content: NewTextContent(text)}},
			}, nil
		},
		PromptTitle("Request Code Review"),
		Argument("code", describe("The code to review")),
		Argument("language", describe("The programming language")))
}

// describe is a schema option that sets the description, shaped like the
// tool options' Description: any such option configures a prompt argument.
type describe string

func (d describe) applySchema(s *jsonschema.Schema) { s.Description = string(d) }

// wantCode checks that err is a *JSONRPCError with code and a message
// containing substr.
func wantCode(t *testing.T, err error, code ErrorCode, substr string) {
	t.Helper()
	var werr *JSONRPCError
	if !errors.As(err, &werr) {
		t.Fatalf("error %v (%T), want a *JSONRPCError with code %d", err, err, code)
	}
	if werr.Code != code || !strings.Contains(werr.Message, substr) {
		t.Fatalf("error %d %q, want code %d and a message containing %q", werr.Code, werr.Message, code, substr)
	}
}

func TestPromptsInBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddPrompts(codeReviewPrompt())
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		ctx := context.Background()

		if caps := cs.ServerCapabilities().Prompts; caps == nil || !caps.ListChanged {
			t.Fatalf("prompts capability %+v, want listChanged", caps)
		}
		var prompts []*Prompt
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			prompts = append(prompts, p)
		}
		want := []*Prompt{{
			Name:        "code_review",
			Title:       "Request Code Review",
			Description: "Asks the LLM to analyze code quality and suggest improvements",
			Arguments: []*PromptArgument{
				{Name: "code", Description: "The code to review", Required: true},
				{Name: "language", Description: "The programming language"},
			},
		}}
		if !reflect.DeepEqual(prompts, want) {
			t.Fatalf("prompts:\n%s\nwant:\n%s", jsonString(prompts), jsonString(want))
		}

		res, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "code_review", Arguments: map[string]string{"code": "x = 1", "language": "python"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Messages) != 1 || res.Messages[0].Content.Text != "Please review this python code:\nx = 1" || res.Messages[0].Role != RoleUser {
			t.Fatalf("messages %s", jsonString(res.Messages))
		}
		wantType := ""
		if isModernVersion(version) {
			wantType = ResultTypeComplete
		}
		if res.ResultType != wantType {
			t.Errorf("resultType %q, want %q", res.ResultType, wantType)
		}
	})
}

func TestGetPromptErrors(t *testing.T) {
	failing := NewPrompt("failing", "", func(context.Context, *ServerSession, map[string]string) (*GetPromptResult, error) {
		return nil, errors.New("template store unavailable")
	})
	tests := []struct {
		name   string
		params *GetPromptParams
		code   ErrorCode
		msg    string
	}{
		{"unknown prompt", &GetPromptParams{Name: "invalid_prompt_name"}, CodeInvalidParams, "Unknown prompt: invalid_prompt_name"},
		{"missing required argument", &GetPromptParams{Name: "code_review"}, CodeInvalidParams, `Invalid arguments for prompt code_review: missing required argument "code"`},
		{"missing despite optional given", &GetPromptParams{Name: "code_review", Arguments: map[string]string{"language": "go"}}, CodeInvalidParams, `missing required argument "code"`},
		{"undeclared arguments", &GetPromptParams{Name: "code_review", Arguments: map[string]string{"code": "x", "lang": "go", "Code": "y"}}, CodeInvalidParams, `unknown arguments "Code", "lang"`},
		{"handler error", &GetPromptParams{Name: "failing"}, CodeInternalError, "template store unavailable"},
	}
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddPrompts(codeReviewPrompt(), failing)
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := cs.GetPrompt(context.Background(), tt.params)
				wantCode(t, err, tt.code, tt.msg)
			})
		}
	})
}

func TestPromptPagination(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", &ServerOptions{PageSize: 2})
		var names []string
		for i := range 5 {
			name := fmt.Sprintf("p%d", i)
			names = append(names, name)
			server.AddPrompts(&ServerPrompt{Prompt: &Prompt{Name: name}, Handler: func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) {
				return &GetPromptResult{}, nil
			}})
		}
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		ctx := context.Background()
		first, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Prompts) != 2 || first.NextCursor == "" {
			t.Fatalf("first page: %d prompts, cursor %q; want 2 and a cursor", len(first.Prompts), first.NextCursor)
		}
		if isModernVersion(version) && (first.TTLMs == nil || first.CacheScope == "") {
			t.Errorf("modern list result without cache hints: ttlMs %v, cacheScope %q", first.TTLMs, first.CacheScope)
		}
		var got []string
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.Name)
		}
		if !reflect.DeepEqual(got, names) {
			t.Fatalf("Prompts iterated %v, want %v", got, names)
		}
		_, err = cs.ListPrompts(ctx, &ListPromptsParams{Cursor: "not a cursor!"})
		wantCode(t, err, CodeInvalidParams, "invalid cursor")
	})
}

func TestPromptListChanged(t *testing.T) {
	// No prompt yet (and so no pending list change), but the capability is
	// declared, so that the client may list them.
	server := NewServer("s", "v1", &ServerOptions{Capabilities: &ServerCapabilities{Prompts: &PromptCapabilities{ListChanged: true}}})
	var changes atomic.Int32
	cs, _ := connect(t, server, &ClientOptions{
		ProtocolVersion: Version20251125,
		PromptListChangedHandler: func(context.Context, *ClientSession, *PromptListChangedParams) {
			changes.Add(1)
		},
	})
	server.AddPrompts(codeReviewPrompt())
	waitUntil(t, func() bool { return changes.Load() == 1 })
	server.RemovePrompts("no_such_prompt") // no change, no notification
	server.RemovePrompts("code_review")
	waitUntil(t, func() bool { return changes.Load() == 2 })
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Prompts) != 0 {
		t.Fatalf("after RemovePrompts: prompts %s", jsonString(res.Prompts))
	}
	if changes.Load() != 2 {
		t.Fatalf("%d list_changed notifications, want 2", changes.Load())
	}
}

func TestPromptsCapability(t *testing.T) {
	server := NewServer("s", "v1", nil)
	if caps := server.capabilities(); caps.Prompts != nil {
		t.Fatalf("server without prompts declares %+v", caps.Prompts)
	}
	cs, _ := connect(t, server, nil)
	if _, err := cs.ListPrompts(context.Background(), nil); !errors.Is(err, ErrNotSupported) {
		t.Fatalf("ListPrompts on a server without prompts: %v, want ErrNotSupported", err)
	}
	server.AddPrompts(codeReviewPrompt())
	if caps := server.capabilities(); caps.Prompts == nil || !caps.Prompts.ListChanged {
		t.Fatalf("server with prompts declares %+v", caps.Prompts)
	}
}

func TestAddPromptsPanics(t *testing.T) {
	handler := func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) { return nil, nil }
	noop := func(context.Context, string, map[string]string) ([]string, error) { return nil, nil }
	tests := []struct {
		name   string
		prompt *ServerPrompt
		panic  string
	}{
		{"nil", nil, "must not be nil"},
		{"nil handler", &ServerPrompt{Prompt: &Prompt{Name: "p"}}, "must not be nil"},
		{"no name", &ServerPrompt{Prompt: &Prompt{}, Handler: handler}, "no name"},
		{"unnamed argument", &ServerPrompt{Prompt: &Prompt{Name: "p", Arguments: []*PromptArgument{{}}}, Handler: handler}, "argument without a name"},
		{"duplicate argument", &ServerPrompt{Prompt: &Prompt{Name: "p", Arguments: []*PromptArgument{{Name: "a"}, {Name: "a"}}}, Handler: handler}, `argument "a" twice`},
		{"completer of undeclared argument", &ServerPrompt{Prompt: &Prompt{Name: "p"}, Handler: handler, Completers: map[string]Completer{"a": noop}}, `undeclared argument "a"`},
		{"nil completer", &ServerPrompt{Prompt: &Prompt{Name: "p", Arguments: []*PromptArgument{{Name: "a"}}}, Handler: handler, Completers: map[string]Completer{"a": nil}}, "nil completer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := panicText(func() { NewServer("s", "v1", nil).AddPrompts(tt.prompt) })
			if !strings.Contains(got, tt.panic) {
				t.Fatalf("panic %q, want one containing %q", got, tt.panic)
			}
		})
	}
}

// jsonString encodes v for failure messages.
func jsonString(v any) string {
	b, err := strictjson.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

// panicText runs f and returns what it panicked with, or "".
func panicText(f func()) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// FuzzPromptRequests feeds arbitrary params to prompts/get and
// completion/complete: a bad request gets an error, never a panic.
func FuzzPromptRequests(f *testing.F) {
	for _, seed := range []string{
		`{"name":"code_review","arguments":{"code":"x"}}`,
		`{"name":"code_review","arguments":{"code":"x","language":"go"}}`,
		`{"name":"code_review"}`,
		`{"name":"nope","arguments":{"code":1}}`,
		`{"name":"code_review","arguments":{"code":"\u0000"}}`,
		`{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"py"}}`,
		`{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"py"},"context":{"arguments":{"code":"x"}}}`,
		`{"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":""}}`,
		`{"ref":null,"argument":{}}`,
		`{"ref":{"type":"ref/unknown"}}`,
		`[]`, `null`, `{`, `{"name":"code_review","name":"code_review"}`,
	} {
		f.Add([]byte(seed))
	}
	server := NewServer("s", "v1", nil)
	server.AddPrompts(codeReviewPrompt(), languagePrompt())
	ss := newServerSession(server, nil)
	ss.era.Store(eraLegacy)
	ss.initialized.Store(true)
	f.Fuzz(func(t *testing.T, raw []byte) {
		ctx := context.Background()
		var gp GetPromptParams
		if decodeRequestParams(&JSONRPCRequest{Params: raw}, &gp) == nil {
			res, err := ss.getPrompt(ctx, &gp)
			if (res == nil) == (err == nil) {
				t.Fatalf("prompts/get %s: result %v and error %v", raw, res, err)
			}
		}
		var cp CompleteParams
		if decodeRequestParams(&JSONRPCRequest{Params: raw}, &cp) == nil {
			res, err := ss.complete(ctx, &cp)
			if (res == nil) == (err == nil) {
				t.Fatalf("completion/complete %s: result %v and error %v", raw, res, err)
			}
			if res != nil && (res.Completion.Values == nil || len(res.Completion.Values) > MaxCompletionValues) {
				t.Fatalf("completion/complete %s: %d values (nil: %t)", raw, len(res.Completion.Values), res.Completion.Values == nil)
			}
		}
	})
}

// TestPromptAsksTheClient: a prompt handler that asks the client (here for
// its roots) is the same code in both eras; in 2026-07-28 the question
// travels as an input-required result and the handler runs again.
func TestPromptAsksTheClient(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		var runs atomic.Int32
		server := NewServer("s", "v1", nil)
		server.AddPrompts(NewPrompt("workspace", "", func(ctx context.Context, ss *ServerSession, _ map[string]string) (*GetPromptResult, error) {
			runs.Add(1)
			res, err := ss.ListRoots(ctx, nil)
			if err != nil {
				return nil, err
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return &GetPromptResult{Messages: []*PromptMessage{{Role: RoleUser, Content: NewTextContent("Work in " + strings.Join(uris, ", "))}}}, nil
		}))
		client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
		client.AddRoots(&Root{URI: "file:///src"})
		ct, st := NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(context.Background(), ct)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close(); ss.Wait() })
		res, err := cs.GetPrompt(context.Background(), &GetPromptParams{Name: "workspace"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Messages[0].Content.Text; got != "Work in file:///src" {
			t.Fatalf("prompt text %q", got)
		}
		wantRuns := int32(1)
		if isModernVersion(version) {
			wantRuns = 2 // asked, then answered
		}
		if runs.Load() != wantRuns {
			t.Errorf("handler ran %d times, want %d", runs.Load(), wantRuns)
		}
	})
}
