package mcp

import ()

// ---- Completion ----

// Values of [CompleteReference.Type].
const (
	// ReferenceTypePrompt refers to a prompt by name.
	ReferenceTypePrompt = "ref/prompt"
	// ReferenceTypeResource refers to a resource template by URI template.
	ReferenceTypeResource = "ref/resource"
)

// CompleteReference names what a completion request is about: a prompt
// (Type "ref/prompt", Name and Title) or a resource template (Type
// "ref/resource", URI).
type CompleteReference struct {
	// Type is ReferenceTypePrompt or ReferenceTypeResource.
	Type string `json:"type"`
	// Name is the name of the prompt.
	Name string `json:"name,omitempty"`
	// Title is the display name of the prompt (2025-06-18).
	Title string `json:"title,omitempty"`
	// URI is the URI template of the resource template.
	URI string `json:"uri,omitempty"`
}

// CompleteArgument is the argument being completed.
type CompleteArgument struct {
	// Name is the name of the argument.
	Name string `json:"name"`
	// Value is the partial value to complete.
	Value string `json:"value"`
}

// CompleteContext is additional context for a completion (2025-06-18).
type CompleteContext struct {
	// Arguments are the values of arguments already resolved.
	Arguments map[string]string `json:"arguments,omitempty"`
}

// CompleteParams are the params of completion/complete. Servers declare
// support with the completions capability since 2025-03-26.
type CompleteParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Ref names the prompt or resource template.
	Ref *CompleteReference `json:"ref"`
	// Argument is the argument to complete.
	Argument CompleteArgument `json:"argument"`
	// Context holds already resolved arguments (2025-06-18).
	Context *CompleteContext `json:"context,omitzero"`
}

// CompletionResultDetails are the completion values of a [CompleteResult].
type CompletionResultDetails struct {
	// Values are the completions, at most 100.
	Values []string `json:"values"`
	// Total is the total number of completions available, if known.
	Total int `json:"total,omitzero"`
	// HasMore reports that there are more completions than Values.
	HasMore bool `json:"hasMore,omitzero"`
}

// CompleteResult is the result of completion/complete.
type CompleteResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Completion holds the completion values.
	Completion CompletionResultDetails `json:"completion"`
}
