package mcp

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gomcp/sdk/internal/strictjson"
)

// NewPrompt makes a prompt whose handler receives its arguments as an In.
//
// In is a struct (or a pointer to one) whose fields are the prompt's
// arguments, or a map[string]string. For a struct, each field that JSON
// encoding would use becomes an argument named by its JSON name; the
// argument is required unless the field's json tag has omitempty or
// omitzero. Prompt arguments are strings, so every such field must have a
// string type; NewPrompt panics, naming the field, if one does not. For a
// map, the arguments are those declared with [Argument] options.
//
// Options refine the prompt: [PromptTitle], [PromptIcons], [PromptMeta],
// and [Argument] with [Description], [ArgumentTitle], [ArgumentRequired]
// and [CompleteWith].
// The server checks the arguments of a prompts/get request against the
// declared ones before the handler runs.
func NewPrompt[In any](name, description string, handler func(context.Context, *ServerSession, In) (*GetPromptResult, error), opts ...PromptOption) *ServerPrompt {
	if handler == nil {
		panic(fmt.Sprintf("mcp: NewPrompt %q: nil handler", name))
	}
	args, open, err := promptArguments(reflect.TypeFor[In]())
	if err != nil {
		panic(fmt.Sprintf("mcp: NewPrompt %q: %v", name, err))
	}
	b := &promptBuilder{prompt: &Prompt{Name: name, Description: description, Arguments: args}, open: open}
	for _, o := range opts {
		if o == nil {
			panic(fmt.Sprintf("mcp: NewPrompt %q: nil option", name))
		}
		o.applyPrompt(b)
	}
	sp := &ServerPrompt{Prompt: b.prompt, Completers: b.completers}
	sp.Handler = func(ctx context.Context, ss *ServerSession, p *GetPromptParams) (*GetPromptResult, error) {
		in, err := decodePromptInput[In](p)
		if err != nil {
			return nil, err
		}
		return handler(ctx, ss, in)
	}
	return sp
}

// decodePromptInput converts the arguments of a prompts/get request to the
// handler's input type, as JSON decoding would.
func decodePromptInput[In any](p *GetPromptParams) (In, error) {
	var in In
	raw := []byte("{}")
	if len(p.Arguments) > 0 {
		var err error
		if raw, err = strictjson.Marshal(p.Arguments); err != nil {
			return in, newError(CodeInvalidParams, "Invalid arguments for prompt %s: %v", p.Name, err)
		}
	}
	if err := strictjson.Unmarshal(raw, &in); err != nil {
		return in, newError(CodeInvalidParams, "Invalid arguments for prompt %s: %v", p.Name, err)
	}
	return in, nil
}

// promptArguments infers the arguments of a prompt from its input type t.
// open reports that t is a map, whose arguments are declared by options.
func promptArguments(t reflect.Type) (args []*PromptArgument, open bool, err error) {
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	switch {
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String:
		return nil, true, nil
	case st.Kind() != reflect.Struct:
		return nil, false, fmt.Errorf("input type %s must be a struct, a pointer to a struct or a map[string]string", t)
	}
	var fields []promptField
	if err := collectPromptFields(st, nil, &fields); err != nil {
		return nil, false, fmt.Errorf("input type %s: %w", t, err)
	}
	fields, err = dominantFields(fields)
	if err != nil {
		return nil, false, fmt.Errorf("input type %s: %w", t, err)
	}
	for _, f := range fields {
		args = append(args, &PromptArgument{Name: f.name, Required: f.required})
	}
	return args, false, nil
}

// A promptField is a struct field that holds a prompt argument.
type promptField struct {
	name     string
	index    []int // path from the input struct, through embedded structs
	required bool
}

// collectPromptFields appends the fields of struct type t that JSON
// encoding uses, descending into embedded and inlined structs.
func collectPromptFields(t reflect.Type, index []int, out *[]promptField) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.HasPrefix(name, "'") {
			return fmt.Errorf("field %s: quoted JSON names are not supported in prompt arguments", f.Name)
		}
		optList := strings.Split(opts, ",")
		idx := append(slices.Clip(index), i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		inline := slices.Contains(optList, "inline") || (f.Anonymous && name == "" && ft.Kind() == reflect.Struct)
		if inline {
			if ft.Kind() != reflect.Struct {
				return fmt.Errorf("field %s: only structs can be inlined in prompt arguments", f.Name)
			}
			if f.Type.Kind() == reflect.Pointer && !f.IsExported() {
				return fmt.Errorf("field %s: an embedded pointer to an unexported struct cannot be decoded", f.Name)
			}
			if err := collectPromptFields(ft, idx, out); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if slices.Contains(optList, "unknown") {
			return fmt.Errorf("field %s: the unknown option is not supported in prompt arguments", f.Name)
		}
		if f.Type.Kind() != reflect.String {
			return fmt.Errorf("field %s has type %s: prompt arguments are strings, so the field must be a string", f.Name, f.Type)
		}
		if !hasTag || name == "" {
			name = f.Name
		}
		optional := slices.Contains(optList, "omitempty") || slices.Contains(optList, "omitzero")
		*out = append(*out, promptField{name: name, index: idx, required: !optional})
	}
	return nil
}

// dominantFields resolves fields with the same JSON name as JSON encoding
// does: the shallowest wins. Two at the same depth are an error here, where
// JSON would silently drop both.
func dominantFields(fields []promptField) ([]promptField, error) {
	best := make(map[string]int) // name -> index into fields
	for i, f := range fields {
		j, ok := best[f.name]
		switch {
		case !ok || len(f.index) < len(fields[j].index):
			best[f.name] = i
		case len(f.index) == len(fields[j].index):
			return nil, fmt.Errorf("two fields have the JSON name %q", f.name)
		}
	}
	var out []promptField
	for i, f := range fields {
		if best[f.name] == i {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b promptField) int { return slices.Compare(a.index, b.index) })
	return out, nil
}
