package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// A PromptHandler renders a prompt for prompts/get. The server has checked
// params.Arguments against the prompt's declared arguments before it runs:
// every required argument is present and no undeclared one is.
type PromptHandler func(ctx context.Context, ss *ServerSession, params *GetPromptParams) (*GetPromptResult, error)

// A ServerPrompt is a prompt bound to the handler that renders it.
// [NewPrompt] builds one from a typed handler; a ServerPrompt may also be
// written as a literal.
type ServerPrompt struct {
	Prompt  *Prompt
	Handler PromptHandler
	// Completers complete the values of the prompt's arguments for
	// completion/complete, keyed by argument name. Arguments without a
	// completer complete to nothing.
	Completers map[string]Completer
}

// promptCapabilities declares the prompts capability when the server has
// prompts.
func promptCapabilities(s *Server, caps *ServerCapabilities) {
	if caps.Prompts == nil && s.prompts.len() > 0 {
		caps.Prompts = &PromptCapabilities{ListChanged: true}
	}
}

// AddPrompts adds prompts to the server, replacing any with the same names,
// and tells connected clients the list changed. It panics if a prompt is
// nil, has no handler or no name, declares an argument twice or without a
// name, or has a completer for an argument it does not declare: these are
// programming errors.
func (s *Server) AddPrompts(prompts ...*ServerPrompt) {
	for _, p := range prompts {
		if err := checkServerPrompt(p); err != nil {
			panic("mcp: AddPrompts: " + err.Error())
		}
	}
	s.prompts.add(func(p *ServerPrompt) string { return p.Prompt.Name }, prompts...)
	s.listChanged(NotificationPromptListChanged)
}

// RemovePrompts removes the named prompts and tells connected clients if the
// list changed. Names not present are ignored.
func (s *Server) RemovePrompts(names ...string) {
	if s.prompts.remove(names...) {
		s.listChanged(NotificationPromptListChanged)
	}
}

// checkServerPrompt reports why p cannot be served.
func checkServerPrompt(p *ServerPrompt) error {
	if p == nil || p.Prompt == nil || p.Handler == nil {
		return errorf("prompt and handler must not be nil")
	}
	if p.Prompt.Name == "" {
		return errorf("prompt has no name")
	}
	seen := make(map[string]bool, len(p.Prompt.Arguments))
	for _, a := range p.Prompt.Arguments {
		switch {
		case a == nil || a.Name == "":
			return errorf("prompt %q has an argument without a name", p.Prompt.Name)
		case seen[a.Name]:
			return errorf("prompt %q declares argument %q twice", p.Prompt.Name, a.Name)
		}
		seen[a.Name] = true
	}
	for name, c := range p.Completers {
		if !seen[name] {
			return errorf("prompt %q has a completer for undeclared argument %q", p.Prompt.Name, name)
		}
		if c == nil {
			return errorf("prompt %q has a nil completer for argument %q", p.Prompt.Name, name)
		}
	}
	return nil
}

func (ss *ServerSession) listPrompts(ctx context.Context, p *ListPromptsParams) (*ListPromptsResult, error) {
	prompts, next, err := ss.server.prompts.page(p.Cursor, ss.server.opts.PageSize)
	if err != nil {
		return nil, err
	}
	res := &ListPromptsResult{Prompts: make([]*Prompt, len(prompts)), NextCursor: next}
	for i, sp := range prompts {
		res.Prompts[i] = sp.Prompt
	}
	if ss.request != nil {
		ss.server.setCacheHints(MethodListPrompts, &res.TTLMs, &res.CacheScope)
	}
	return res, nil
}

func (ss *ServerSession) getPrompt(ctx context.Context, p *GetPromptParams) (*GetPromptResult, error) {
	sp, ok := ss.server.prompts.get(p.Name)
	if !ok {
		return nil, unknownPrompt(p.Name)
	}
	if err := checkPromptArguments(sp.Prompt, p.Arguments); err != nil {
		return nil, err
	}
	res, err := sp.Handler(ctx, ss, p)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &GetPromptResult{}
	}
	if res.Messages == nil {
		res.Messages = []*PromptMessage{}
	}
	return res, nil
}

// unknownPrompt is the error for a prompt name the server does not have,
// worded as the 2026-07-28 example InvalidParamsError/unknown-prompt.
func unknownPrompt(name string) error {
	return newError(CodeInvalidParams, "Unknown prompt: %s", name)
}

// checkPromptArguments checks args against the arguments prompt declares:
// each required one must be present and no undeclared one may be.
func checkPromptArguments(prompt *Prompt, args map[string]string) error {
	var missing, unknown []string
	for _, a := range prompt.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	for name := range args {
		if !slices.ContainsFunc(prompt.Arguments, func(a *PromptArgument) bool { return a.Name == name }) {
			unknown = append(unknown, name)
		}
	}
	if len(missing) == 0 && len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown) // map order is random; keep the message stable
	var problems []string
	if len(missing) > 0 {
		problems = append(problems, "missing required "+quoteList("argument", missing))
	}
	if len(unknown) > 0 {
		problems = append(problems, "unknown "+quoteList("argument", unknown))
	}
	return newError(CodeInvalidParams, "Invalid arguments for prompt %s: %s", prompt.Name, strings.Join(problems, "; "))
}

// quoteList formats names as `argument "a"` or `arguments "a", "b"`.
func quoteList(noun string, names []string) string {
	if len(names) > 1 {
		noun += "s"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return noun + " " + strings.Join(quoted, ", ")
}
