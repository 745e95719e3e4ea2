package mcp

import (
	"fmt"
	"slices"

	"github.com/gomcp/sdk/jsonschema"
)

// A PromptOption configures a prompt made by [NewPrompt]: [Argument],
// [PromptTitle], [PromptIcons] and [PromptMeta].
type PromptOption interface {
	applyPrompt(*promptBuilder)
}

// An ArgumentOption configures one argument of a prompt; see [Argument].
//
// A prompt argument is described like a string property of a tool's input
// schema, so every schema option (such as Description) is an
// ArgumentOption: the argument takes the title and description of the
// schema the options build. [ArgumentTitle], [ArgumentRequired] and
// [CompleteWith] are argument options too.
type ArgumentOption interface {
	applySchema(*jsonschema.Schema)
}

// promptBuilder is what NewPrompt's options change.
type promptBuilder struct {
	prompt     *Prompt
	completers map[string]Completer
	// open reports whether Argument may declare arguments that the input
	// type does not have (the input type is a map).
	open bool
}

type promptOptionFunc func(*promptBuilder)

func (f promptOptionFunc) applyPrompt(b *promptBuilder) { f(b) }

// Argument configures the prompt argument called name. For a prompt whose
// input type is a struct, name is the JSON name of one of its fields, and
// NewPrompt panics if there is none. For a map input type, Argument
// declares the argument (optional unless ArgumentRequired(true) is given).
//
//	NewPrompt("code_review", "review code", handler,
//		Argument("code", Description("the code to review")))
func Argument(name string, opts ...ArgumentOption) PromptOption {
	return promptOptionFunc(func(b *promptBuilder) {
		idx := slices.IndexFunc(b.prompt.Arguments, func(a *PromptArgument) bool { return a.Name == name })
		if idx < 0 {
			if !b.open || name == "" {
				panic(fmt.Sprintf("mcp: NewPrompt %q: Argument(%q): the input type has no field with that JSON name", b.prompt.Name, name))
			}
			b.prompt.Arguments = append(b.prompt.Arguments, &PromptArgument{Name: name})
			idx = len(b.prompt.Arguments) - 1
		}
		arg := b.prompt.Arguments[idx]
		schema := &jsonschema.Schema{Type: "string", Title: arg.Title, Description: arg.Description}
		for _, o := range opts {
			switch o := o.(type) {
			case nil:
				panic(fmt.Sprintf("mcp: NewPrompt %q: Argument(%q): nil option", b.prompt.Name, name))
			case requiredArgument:
				arg.Required = bool(o)
			case completeWith:
				if b.completers == nil {
					b.completers = make(map[string]Completer)
				}
				b.completers[name] = o.c
			default:
				o.applySchema(schema)
			}
		}
		arg.Title, arg.Description = schema.Title, schema.Description
	})
}

// argumentTitle is the option ArgumentTitle returns.
type argumentTitle string

var _ SchemaOption = argumentTitle("")

func (t argumentTitle) applySchema(s *jsonschema.Schema) { s.Title = string(t) }

// ArgumentTitle sets the display name (2025-06-18) of a prompt argument.
// As a schema option it sets the schema's title.
func ArgumentTitle(title string) ArgumentOption { return argumentTitle(title) }

// requiredArgument is the option ArgumentRequired returns. It has no
// effect on a schema.
type requiredArgument bool

var _ SchemaOption = requiredArgument(false)

func (requiredArgument) applySchema(*jsonschema.Schema) {}

// ArgumentRequired sets whether a prompt argument must be given,
// overriding what NewPrompt inferred from the field's json tag. It has an
// effect only in [Argument].
func ArgumentRequired(required bool) ArgumentOption { return requiredArgument(required) }

// completeWith is the option CompleteWith returns. It has no effect on a
// schema.
type completeWith struct{ c Completer }

var _ SchemaOption = completeWith{}

func (completeWith) applySchema(*jsonschema.Schema) {}

// CompleteWith attaches a completer to a prompt argument: completion/complete
// requests for the argument are answered with the values c returns.
// Declaring any completer makes the server declare the completions
// capability. It has an effect only in [Argument].
func CompleteWith(c Completer) ArgumentOption {
	if c == nil {
		panic("mcp: CompleteWith: nil completer")
	}
	return completeWith{c}
}

// PromptTitle sets the display name (2025-06-18) of a prompt.
func PromptTitle(title string) PromptOption {
	return promptOptionFunc(func(b *promptBuilder) { b.prompt.Title = title })
}

// PromptIcons sets the icons of a prompt (2025-11-25).
func PromptIcons(icons ...Icon) PromptOption {
	return promptOptionFunc(func(b *promptBuilder) { b.prompt.Icons = icons })
}

// PromptMeta sets the _meta of a prompt (2025-06-18).
func PromptMeta(meta Meta) PromptOption {
	return promptOptionFunc(func(b *promptBuilder) { b.prompt.Meta = meta })
}
