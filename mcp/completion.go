package mcp

import (
	"context"
	"fmt"
)

// A Completer suggests values for a prompt argument or a resource template
// variable, for completion/complete. value is what the user has typed so
// far; resolved holds the values of the other arguments or variables that
// the client already knows (the request's context.arguments; nil if none).
// It returns the suggestions, most relevant first. The server sends the
// first [MaxCompletionValues] of them, with the total count and whether
// there were more.
//
// An error is reported to the client as a JSON-RPC error: a *JSONRPCError
// keeps its code, any other error is an internal error.
type Completer func(ctx context.Context, value string, resolved map[string]string) ([]string, error)

// MaxCompletionValues is the most values a completion/complete result may
// hold.
const MaxCompletionValues = 100

// completionCapabilities declares the completions capability when a
// prompt argument or template variable has a completer.
func completionCapabilities(s *Server, caps *ServerCapabilities) {
	if caps.Completions == nil && s.hasCompleters() {
		caps.Completions = &CompletionCapabilities{}
	}
}

// hasCompleters reports whether any prompt argument or template variable
// has a completer.
func (s *Server) hasCompleters() bool {
	for _, p := range s.prompts.all() {
		if len(p.Completers) > 0 {
			return true
		}
	}
	for _, t := range s.templates.all() {
		if len(t.Completers) > 0 {
			return true
		}
	}
	return false
}

func (ss *ServerSession) complete(ctx context.Context, p *CompleteParams) (*CompleteResult, error) {
	c, err := ss.server.completerFor(p)
	if err != nil {
		return nil, err
	}
	res := &CompleteResult{Completion: CompletionResultDetails{Values: []string{}}}
	if c == nil {
		return res, nil
	}
	var resolved map[string]string
	if p.Context != nil {
		resolved = p.Context.Arguments
	}
	values, err := c(ctx, p.Argument.Value, resolved)
	if err != nil {
		return nil, err
	}
	res.Completion = completionDetails(values)
	return res, nil
}

// completionDetails caps values at MaxCompletionValues and reports the
// total and whether values were left out.
func completionDetails(values []string) CompletionResultDetails {
	d := CompletionResultDetails{Values: values, Total: len(values)}
	if len(values) > MaxCompletionValues {
		d.Values = values[:MaxCompletionValues:MaxCompletionValues]
		d.HasMore = true
	}
	if d.Values == nil {
		d.Values = []string{}
	}
	return d
}

// completerFor finds the completer a completion request refers to. It is
// nil, with no error, for a known prompt argument or template without a
// completer, and for a plain resource (which has no variables). An unknown
// prompt, argument or template, or a malformed reference, is an
// invalid-params error.
func (s *Server) completerFor(p *CompleteParams) (Completer, error) {
	ref := p.Ref
	if ref == nil {
		return nil, newError(CodeInvalidParams, "Invalid completion request: missing ref")
	}
	if p.Argument.Name == "" {
		return nil, newError(CodeInvalidParams, "Invalid completion request: missing argument name")
	}
	switch ref.Type {
	case ReferenceTypePrompt:
		sp, ok := s.prompts.get(ref.Name)
		if !ok {
			return nil, unknownPrompt(ref.Name)
		}
		if !declaresArgument(sp.Prompt, p.Argument.Name) {
			return nil, newError(CodeInvalidParams, "Invalid completion request: prompt %s has no argument %q", ref.Name, p.Argument.Name)
		}
		return sp.Completers[p.Argument.Name], nil
	case ReferenceTypeResource:
		if t, ok := s.templates.get(ref.URI); ok {
			return t.Completers[p.Argument.Name], nil
		}
		if _, ok := s.resources.get(ref.URI); ok {
			return nil, nil
		}
		return nil, newErrorWithData(CodeInvalidParams, fmt.Sprintf("Unknown resource template: %s", ref.URI), map[string]string{"uri": ref.URI})
	}
	return nil, newError(CodeInvalidParams, "Invalid completion request: unknown ref type %q (want %q or %q)", ref.Type, ReferenceTypePrompt, ReferenceTypeResource)
}

func declaresArgument(p *Prompt, name string) bool {
	for _, a := range p.Arguments {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Complete asks the server for completions of a prompt argument or a
// resource template variable (spec method completion/complete).
func (cs *ClientSession) Complete(ctx context.Context, params *CompleteParams) (*CompleteResult, error) {
	// The completions capability exists since 2025-03-26; a 2024-11-05
	// server answers completion/complete without declaring anything.
	if cs.version != Version20241105 {
		if err := requireServer(cs.serverCaps.Completions != nil, "completions"); err != nil {
			return nil, err
		}
	}
	return clientCall[CompleteParams, CompleteResult](ctx, cs, MethodComplete, params)
}
