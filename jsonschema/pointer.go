package jsonschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// pointer resolves a JSON pointer fragment within a resource. The pointer may
// lead into subschemas, or into values that are not schemas to this package
// (unknown keywords, examples, ...), which are then decoded as schemas.
func (r *resolver) pointer(res *resource, ptr string) (*node, error) {
	fail := func(why string) (*node, error) {
		return nil, fmt.Errorf("jsonschema: %w: %s#%s: %s", ErrUnresolvedRef, res.uri, ptr, why)
	}
	if res.root == nil {
		return fail("no such document")
	}
	var cur any = res.root.schema
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescape.Replace(tok)
		next, ok := step(cur, tok)
		if !ok {
			return fail(fmt.Sprintf("no %q", tok))
		}
		cur = next
	}
	var s *Schema
	switch x := cur.(type) {
	case *Schema:
		s = x
	case map[string]any, bool:
		b, err := json.Marshal(x)
		if err != nil {
			return fail(err.Error())
		}
		s = new(Schema)
		if err := s.UnmarshalJSON(b); err != nil {
			return fail(err.Error())
		}
	default:
		return fail("not a schema")
	}
	if n, ok := r.nodes[s]; ok {
		return n, nil
	}
	// A schema inside a non-schema keyword: index it in the resource.
	pos := walkPos{parent: res.root, kw: ptr[1:], idx: -1, res: res, d: res.root.dialect}
	if err := r.walk(s, pos, 0); err != nil {
		return nil, err
	}
	return r.nodes[s], nil
}

// step follows one JSON pointer token from cur, which is a *Schema, a
// collection of schemas, or a JSON value.
func step(cur any, tok string) (any, bool) {
	switch x := cur.(type) {
	case *Schema:
		if x == nil {
			return nil, false
		}
		return schemaKeyword(x, tok)
	case map[string]*Schema:
		s, ok := x[tok]
		return s, ok && s != nil
	case []*Schema:
		i, ok := index(tok, len(x))
		if !ok {
			return nil, false
		}
		return x[i], x[i] != nil
	case map[string]any:
		v, ok := x[tok]
		return v, ok
	case []any:
		i, ok := index(tok, len(x))
		if !ok {
			return nil, false
		}
		return x[i], true
	}
	return nil, false
}

func index(tok string, n int) (int, bool) {
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= n || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	return i, true
}

// schemaKeyword returns the value of keyword kw of s, if present.
func schemaKeyword(s *Schema, kw string) (any, bool) {
	if v, ok := schemaKeywordSchemas(s, kw); ok {
		return v, true
	}
	switch kw {
	case "examples":
		return s.Examples, s.Examples != nil
	case "enum":
		return s.Enum, s.Enum != nil
	case "const":
		if s.Const == nil {
			return nil, false
		}
		return *s.Const, true
	case "default":
		if len(s.Default) == 0 {
			return nil, false
		}
		var v any
		if err := json.Unmarshal(s.Default, &v); err != nil {
			return nil, false
		}
		return v, true
	}
	v, ok := s.Extra[kw]
	return v, ok
}

// schemaKeywordSchemas returns keywords whose values are schemas.
func schemaKeywordSchemas(s *Schema, kw string) (any, bool) {
	var v any
	switch kw {
	case "$defs":
		v = s.Defs
	case "definitions":
		v = s.Definitions
	case "properties":
		v = s.Properties
	case "patternProperties":
		v = s.PatternProperties
	case "dependentSchemas":
		v = s.DependentSchemas
	case "dependencies":
		v = s.DependencySchemas
	case "allOf":
		v = s.AllOf
	case "anyOf":
		v = s.AnyOf
	case "oneOf":
		v = s.OneOf
	case "prefixItems":
		v = s.PrefixItems
	case "items":
		if s.Items == nil && s.ItemsArray != nil {
			v = s.ItemsArray
		} else {
			v = s.Items
		}
	case "additionalItems":
		v = s.AdditionalItems
	case "contains":
		v = s.Contains
	case "additionalProperties":
		v = s.AdditionalProperties
	case "propertyNames":
		v = s.PropertyNames
	case "unevaluatedItems":
		v = s.UnevaluatedItems
	case "unevaluatedProperties":
		v = s.UnevaluatedProperties
	case "not":
		v = s.Not
	case "if":
		v = s.If
	case "then":
		v = s.Then
	case "else":
		v = s.Else
	case "contentSchema":
		v = s.ContentSchema
	default:
		return nil, false
	}
	switch x := v.(type) {
	case *Schema:
		return x, x != nil
	case map[string]*Schema:
		return x, x != nil
	case []*Schema:
		return x, x != nil
	}
	return nil, false
}
