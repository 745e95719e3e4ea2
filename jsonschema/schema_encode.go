package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// errFalseWithKeywords is returned when a False() schema also has keywords.
var errFalseWithKeywords = errors.New("jsonschema: a False() schema must not have other keywords")

// MarshalJSON encodes s as JSON, leaving out empty keywords. Boolean schemas
// encode as true and false; a True() schema with keywords encodes as an
// object. Keywords are written in a fixed order (identifiers, meta-data,
// validation, applicators, $defs, then Extra sorted by name).
func (s *Schema) MarshalJSON() ([]byte, error) {
	return s.appendJSON(make([]byte, 0, 256), 0)
}

// maxSchemaDepth bounds the nesting of Go Schema values (which may contain
// pointer cycles) during marshaling and resolution.
const maxSchemaDepth = 1000

// schemaEncoder writes one schema object, adding commas between keywords.
type schemaEncoder struct {
	buf   []byte
	first bool
	depth int
	err   error
}

func (e *schemaEncoder) key(name string) {
	if e.first {
		e.first = false
	} else {
		e.buf = append(e.buf, ',')
	}
	e.buf = appendQuoted(e.buf, name)
	e.buf = append(e.buf, ':')
}

func (e *schemaEncoder) str(name, v string) {
	if v != "" {
		e.key(name)
		e.buf = appendQuoted(e.buf, v)
	}
}

func (e *schemaEncoder) boolean(name string, v bool) {
	if v {
		e.key(name)
		e.buf = append(e.buf, "true"...)
	}
}

func (e *schemaEncoder) float(name string, v *float64, lit string) {
	if v == nil {
		return
	}
	if lit != "" {
		e.key(name)
		e.buf = append(e.buf, lit...)
		return
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) {
		e.fail(fmt.Errorf("jsonschema: %s is %v, which JSON cannot represent", name, *v))
		return
	}
	e.key(name)
	e.buf = appendFloat(e.buf, *v)
}

func (e *schemaEncoder) count(name string, v *int) {
	if v != nil {
		e.key(name)
		e.buf = strconv.AppendInt(e.buf, int64(*v), 10)
	}
}

func (e *schemaEncoder) strings(name string, v []string) {
	if len(v) == 0 {
		return
	}
	e.key(name)
	e.buf = appendStrings(e.buf, v)
}

func appendStrings(dst []byte, v []string) []byte {
	dst = append(dst, '[')
	for i, s := range v {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendQuoted(dst, s)
	}
	return append(dst, ']')
}

func (e *schemaEncoder) value(name string, v any) {
	e.key(name)
	b, err := json.Marshal(v)
	if err != nil {
		e.fail(fmt.Errorf("jsonschema: keyword %s: %w", name, err))
		return
	}
	e.buf = append(e.buf, b...)
}

func (e *schemaEncoder) values(name string, v []any, keepEmpty bool) {
	if v == nil || (len(v) == 0 && !keepEmpty) {
		return
	}
	e.value(name, v)
}

func (e *schemaEncoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *schemaEncoder) schema(name string, s *Schema) {
	if s == nil {
		return
	}
	e.key(name)
	e.sub(s)
}

func (e *schemaEncoder) sub(s *Schema) {
	b, err := s.appendJSON(e.buf, e.depth+1)
	if err != nil {
		e.fail(err)
		return
	}
	e.buf = b
}

func (e *schemaEncoder) schemaList(name string, list []*Schema) {
	if len(list) == 0 {
		return
	}
	e.key(name)
	e.buf = append(e.buf, '[')
	for i, s := range list {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if s == nil {
			e.buf = append(e.buf, "true"...)
			continue
		}
		e.sub(s)
	}
	e.buf = append(e.buf, ']')
}

// schemaMap writes a map of schemas in the given key order.
func (e *schemaEncoder) schemaMap(name string, m map[string]*Schema, order []string) {
	if len(m) == 0 {
		return
	}
	e.key(name)
	e.buf = append(e.buf, '{')
	for i, k := range order {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendQuoted(e.buf, k)
		e.buf = append(e.buf, ':')
		if m[k] == nil {
			e.buf = append(e.buf, "true"...)
			continue
		}
		e.sub(m[k])
	}
	e.buf = append(e.buf, '}')
}

func (s *Schema) appendJSON(dst []byte, depth int) ([]byte, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("jsonschema: schema nested deeper than %d (a pointer cycle?)", maxSchemaDepth)
	}
	start := len(dst)
	e := &schemaEncoder{buf: append(dst, '{'), first: true, depth: depth}
	e.identifiers(s)
	e.metadata(s)
	e.validation(s)
	e.applicators(s)
	e.schemaMap("$defs", s.Defs, sortedKeys(s.Defs))
	e.schemaMap("definitions", s.Definitions, sortedKeys(s.Definitions))
	for _, k := range sortedKeys(s.Extra) {
		e.value(k, s.Extra[k])
	}
	e.buf = append(e.buf, '}')
	if e.err != nil {
		return nil, e.err
	}
	if s.boolean != 0 && len(e.buf)-start == 2 {
		if s.boolean == boolFalse {
			return append(e.buf[:start], "false"...), nil
		}
		return append(e.buf[:start], "true"...), nil
	}
	if s.boolean == boolFalse {
		return nil, errFalseWithKeywords
	}
	return e.buf, nil
}

func (e *schemaEncoder) identifiers(s *Schema) {
	e.str("$schema", s.Schema)
	e.str("$id", s.ID)
	e.str("$anchor", s.Anchor)
	e.str("$dynamicAnchor", s.DynamicAnchor)
	e.str("$ref", s.Ref)
	e.str("$dynamicRef", s.DynamicRef)
	if len(s.Vocabulary) > 0 {
		e.key("$vocabulary")
		e.buf = append(e.buf, '{')
		for i, k := range sortedKeys(s.Vocabulary) {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendQuoted(e.buf, k)
			e.buf = strconv.AppendBool(append(e.buf, ':'), s.Vocabulary[k])
		}
		e.buf = append(e.buf, '}')
	}
	e.str("$comment", s.Comment)
}

func (e *schemaEncoder) metadata(s *Schema) {
	e.str("title", s.Title)
	e.str("description", s.Description)
	if len(s.Default) > 0 {
		if !json.Valid(s.Default) {
			e.fail(fmt.Errorf("jsonschema: default is not valid JSON: %q", s.Default))
			return
		}
		e.key("default")
		e.buf = append(e.buf, s.Default...)
	}
	e.boolean("deprecated", s.Deprecated)
	e.boolean("readOnly", s.ReadOnly)
	e.boolean("writeOnly", s.WriteOnly)
	e.values("examples", s.Examples, false)
}

func (e *schemaEncoder) validation(s *Schema) {
	switch {
	case len(s.Types) > 0:
		e.strings("type", s.Types)
	case s.Type != "":
		e.str("type", s.Type)
	}
	e.values("enum", s.Enum, true)
	if s.Const != nil {
		e.value("const", *s.Const)
	}
	e.float("multipleOf", s.MultipleOf, s.numLiteral(litNumMultipleOf, s.MultipleOf))
	e.float("minimum", s.Minimum, s.numLiteral(litNumMinimum, s.Minimum))
	e.float("exclusiveMinimum", s.ExclusiveMinimum, s.numLiteral(litNumExclusiveMinimum, s.ExclusiveMinimum))
	e.float("maximum", s.Maximum, s.numLiteral(litNumMaximum, s.Maximum))
	e.float("exclusiveMaximum", s.ExclusiveMaximum, s.numLiteral(litNumExclusiveMaximum, s.ExclusiveMaximum))
	e.count("minLength", s.MinLength)
	e.count("maxLength", s.MaxLength)
	e.str("pattern", s.Pattern)
	e.str("format", s.Format)
	e.str("contentEncoding", s.ContentEncoding)
	e.str("contentMediaType", s.ContentMediaType)
	e.schema("contentSchema", s.ContentSchema)
	e.count("minItems", s.MinItems)
	e.count("maxItems", s.MaxItems)
	e.boolean("uniqueItems", s.UniqueItems)
	e.count("minContains", s.MinContains)
	e.count("maxContains", s.MaxContains)
	e.count("minProperties", s.MinProperties)
	e.count("maxProperties", s.MaxProperties)
	e.strings("required", s.Required)
	if len(s.DependentRequired) > 0 {
		e.key("dependentRequired")
		e.buf = append(e.buf, '{')
		for i, k := range sortedKeys(s.DependentRequired) {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendQuoted(e.buf, k)
			e.buf = appendStrings(append(e.buf, ':'), s.DependentRequired[k])
		}
		e.buf = append(e.buf, '}')
	}
}

func (e *schemaEncoder) applicators(s *Schema) {
	e.schemaList("prefixItems", s.PrefixItems)
	switch {
	case s.Items != nil:
		e.schema("items", s.Items)
	case len(s.ItemsArray) > 0:
		e.schemaList("items", s.ItemsArray)
	}
	e.schema("additionalItems", s.AdditionalItems)
	e.schema("contains", s.Contains)
	e.schema("unevaluatedItems", s.UnevaluatedItems)
	e.schemaMap("properties", s.Properties, s.propertyNames())
	e.schemaMap("patternProperties", s.PatternProperties, sortedKeys(s.PatternProperties))
	e.schema("additionalProperties", s.AdditionalProperties)
	e.schema("propertyNames", s.PropertyNames)
	e.schemaMap("dependentSchemas", s.DependentSchemas, sortedKeys(s.DependentSchemas))
	e.dependencies(s)
	e.schema("unevaluatedProperties", s.UnevaluatedProperties)
	e.schemaList("allOf", s.AllOf)
	e.schemaList("anyOf", s.AnyOf)
	e.schemaList("oneOf", s.OneOf)
	e.schema("not", s.Not)
	e.schema("if", s.If)
	e.schema("then", s.Then)
	e.schema("else", s.Else)
}

// dependencies writes draft-07's dependencies from its two Go fields.
func (e *schemaEncoder) dependencies(s *Schema) {
	if len(s.DependencySchemas) == 0 && len(s.DependencyStrings) == 0 {
		return
	}
	names := sortedKeys(s.DependencySchemas)
	for _, k := range sortedKeys(s.DependencyStrings) {
		if _, dup := s.DependencySchemas[k]; dup {
			e.fail(fmt.Errorf("jsonschema: dependency %q is in both DependencySchemas and DependencyStrings", k))
			return
		}
		names = append(names, k)
	}
	e.key("dependencies")
	e.buf = append(e.buf, '{')
	for i, k := range names {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendQuoted(e.buf, k)
		e.buf = append(e.buf, ':')
		if sub, ok := s.DependencySchemas[k]; ok {
			if sub == nil {
				e.buf = append(e.buf, "true"...)
			} else {
				e.sub(sub)
			}
		} else {
			e.buf = appendStrings(e.buf, s.DependencyStrings[k])
		}
	}
	e.buf = append(e.buf, '}')
}
