package mcp

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type Lang string

type baseArgs struct {
	Repo   string `json:"repo"`
	Branch string `json:"branch,omitzero"`
}

type PagedArgs struct {
	Page string `json:"page,omitempty"`
}

type embeddingArgs struct {
	baseArgs
	*PagedArgs
	Query  string `json:"query"`
	Branch string `json:"branch"` // shadows baseArgs.Branch
}

func TestNewPromptInfersArguments(t *testing.T) {
	type plain struct {
		Code     string `json:"code"`
		Style    string `json:"style,omitempty"`
		Audience string `json:"audience,omitzero"`
		Language Lang   `json:"language"`
		Untagged string
		Skipped  string `json:"-"`
		//lint:ignore U1000 an unexported field, which must not become an argument
		hidden string
	}
	type inlined struct {
		Inner baseArgs `json:",inline"`
		Topic string   `json:"topic"`
	}
	tests := []struct {
		name   string
		prompt *ServerPrompt
		want   []*PromptArgument
	}{
		{
			name:   "tags decide names and required",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, plain) (*GetPromptResult, error) { return nil, nil }),
			want: []*PromptArgument{
				{Name: "code", Required: true}, {Name: "style"}, {Name: "audience"},
				{Name: "language", Required: true}, {Name: "Untagged", Required: true},
			},
		},
		{
			name:   "pointer to struct",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, *baseArgs) (*GetPromptResult, error) { return nil, nil }),
			want:   []*PromptArgument{{Name: "repo", Required: true}, {Name: "branch"}},
		},
		{
			name:   "embedded structs, shallower field wins",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, embeddingArgs) (*GetPromptResult, error) { return nil, nil }),
			want:   []*PromptArgument{{Name: "repo", Required: true}, {Name: "page"}, {Name: "query", Required: true}, {Name: "branch", Required: true}},
		},
		{
			name:   "inline option",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, inlined) (*GetPromptResult, error) { return nil, nil }),
			want:   []*PromptArgument{{Name: "repo", Required: true}, {Name: "branch"}, {Name: "topic", Required: true}},
		},
		{
			name: "options refine inferred arguments",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, baseArgs) (*GetPromptResult, error) { return nil, nil },
				Argument("repo", describe("owner/name"), ArgumentTitle("Repository"), ArgumentRequired(false)),
				Argument("branch", ArgumentRequired(true))),
			want: []*PromptArgument{{Name: "repo", Title: "Repository", Description: "owner/name"}, {Name: "branch", Required: true}},
		},
		{
			name: "map input declares arguments by options",
			prompt: NewPrompt("p", "", func(context.Context, *ServerSession, map[string]string) (*GetPromptResult, error) { return nil, nil },
				Argument("topic", ArgumentRequired(true), describe("what to write about")), Argument("tone")),
			want: []*PromptArgument{{Name: "topic", Description: "what to write about", Required: true}, {Name: "tone"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.prompt.Prompt.Arguments; !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("arguments:\n%s\nwant:\n%s", jsonString(got), jsonString(tt.want))
			}
		})
	}
}

func TestNewPromptPanics(t *testing.T) {
	type withInt struct {
		Count int `json:"count"`
	}
	type withPtr struct {
		Name *string `json:"name"`
	}
	type twinA struct {
		A string `json:"X"`
	}
	type twinB struct {
		X string
	}
	type twins struct { // "X" twice at the same depth
		twinA
		twinB
	}
	type unexportedPtr struct {
		*baseArgs
	}
	tests := []struct {
		name string
		make func()
		want string
	}{
		{"int field", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, withInt) (*GetPromptResult, error) { return nil, nil })
		}, "field Count has type int: prompt arguments are strings"},
		{"pointer field", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, withPtr) (*GetPromptResult, error) { return nil, nil })
		}, "field Name has type *string"},
		{"duplicate names", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, twins) (*GetPromptResult, error) { return nil, nil })
		}, `two fields have the JSON name "X"`},
		{"unexported embedded pointer", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, unexportedPtr) (*GetPromptResult, error) { return nil, nil })
		}, "embedded pointer to an unexported struct"},
		{"not a struct", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, string) (*GetPromptResult, error) { return nil, nil })
		}, "must be a struct, a pointer to a struct or a map[string]string"},
		{"map of ints", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, map[string]int) (*GetPromptResult, error) { return nil, nil })
		}, "must be a struct"},
		{"nil handler", func() { NewPrompt[baseArgs]("p", "", nil) }, "nil handler"},
		{"argument without field", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, baseArgs) (*GetPromptResult, error) { return nil, nil }, Argument("nope"))
		}, `Argument("nope"): the input type has no field`},
		{"nil option", func() {
			NewPrompt("p", "", func(context.Context, *ServerSession, baseArgs) (*GetPromptResult, error) { return nil, nil }, nil)
		}, "nil option"},
		{"nil completer", func() { CompleteWith(nil) }, "nil completer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := panicText(tt.make)
			if !strings.Contains(got, tt.want) {
				t.Fatalf("panic %q, want one containing %q", got, tt.want)
			}
		})
	}
}

func TestNewPromptPassesArguments(t *testing.T) {
	var got embeddingArgs
	sp := NewPrompt("search", "", func(_ context.Context, _ *ServerSession, in embeddingArgs) (*GetPromptResult, error) {
		got = in
		return &GetPromptResult{}, nil
	})
	_, err := sp.Handler(context.Background(), nil, &GetPromptParams{Name: "search", Arguments: map[string]string{
		"repo": "golang/go", "page": "2", "query": "ptr", "branch": "master",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Repo != "golang/go" || got.PagedArgs == nil || got.Page != "2" || got.Query != "ptr" || got.Branch != "master" || got.baseArgs.Branch != "" {
		t.Fatalf("handler got %+v (paged %+v)", got, got.PagedArgs)
	}

	var gotMap map[string]string
	mp := NewPrompt("m", "", func(_ context.Context, _ *ServerSession, in map[string]string) (*GetPromptResult, error) {
		gotMap = in
		return &GetPromptResult{}, nil
	}, Argument("a"))
	if _, err := mp.Handler(context.Background(), nil, &GetPromptParams{Name: "m"}); err != nil {
		t.Fatal(err)
	}
	if gotMap == nil || len(gotMap) != 0 {
		t.Fatalf("map handler without arguments got %#v, want an empty map", gotMap)
	}
}

func TestPromptWithOptionsOverTheWire(t *testing.T) {
	sp := NewPrompt("p", "desc", func(context.Context, *ServerSession, baseArgs) (*GetPromptResult, error) { return nil, nil },
		PromptTitle("Title"), PromptIcons(Icon{Src: "https://example.com/i.svg"}), PromptMeta(Meta{Data: map[string]any{"k": "v"}}))
	want := &Prompt{Name: "p", Title: "Title", Description: "desc", Icons: []Icon{{Src: "https://example.com/i.svg"}},
		Meta:      Meta{Data: map[string]any{"k": "v"}},
		Arguments: []*PromptArgument{{Name: "repo", Required: true}, {Name: "branch"}}}
	if !reflect.DeepEqual(sp.Prompt, want) {
		t.Fatalf("prompt %s, want %s", jsonString(sp.Prompt), jsonString(want))
	}
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddPrompts(sp)
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		// A nil result from the handler is an empty prompt.
		res, err := cs.GetPrompt(context.Background(), &GetPromptParams{Name: "p", Arguments: map[string]string{"repo": "r"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Messages == nil || len(res.Messages) != 0 {
			t.Fatalf("messages %#v, want empty", res.Messages)
		}
	})
}

// ticker is a string argument type with its own JSON decoding.
type ticker string

func (t *ticker) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || strings.ToUpper(s) != s {
		return errors.New("ticker must be upper case")
	}
	*t = ticker(s)
	return nil
}

func TestNewPromptArgumentDecodingError(t *testing.T) {
	sp := NewPrompt("quote", "", func(_ context.Context, _ *ServerSession, in struct {
		Symbol ticker `json:"symbol"`
	}) (*GetPromptResult, error) {
		return &GetPromptResult{Description: string(in.Symbol)}, nil
	})
	res, err := sp.Handler(context.Background(), nil, &GetPromptParams{Name: "quote", Arguments: map[string]string{"symbol": "GOOG"}})
	if err != nil || res.Description != "GOOG" {
		t.Fatalf("valid symbol: %v, %v", res, err)
	}
	_, err = sp.Handler(context.Background(), nil, &GetPromptParams{Name: "quote", Arguments: map[string]string{"symbol": "goog"}})
	wantCode(t, err, CodeInvalidParams, "Invalid arguments for prompt quote")
	if !strings.Contains(err.Error(), "ticker must be upper case") {
		t.Errorf("error %q does not say why", err)
	}
}
