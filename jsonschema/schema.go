package jsonschema

import (
	"encoding/json"
	"iter"
	"slices"
)

// Dialect URIs accepted in $schema and in ResolveOptions.DefaultDialect.
const (
	// Draft202012 is the JSON Schema draft 2020-12 meta-schema URI, the
	// dialect used when a schema has no $schema.
	Draft202012 = "https://json-schema.org/draft/2020-12/schema"
	// Draft201909 is the draft 2019-09 meta-schema URI. Draft 2019-09 is
	// supported as draft 2020-12 with the array form of items and
	// additionalItems instead of prefixItems; $recursiveRef is not supported.
	Draft201909 = "https://json-schema.org/draft/2019-09/schema"
	// Draft7 is the JSON Schema draft-07 meta-schema URI.
	Draft7 = "http://json-schema.org/draft-07/schema#"
)

// A Schema is a JSON Schema document or subschema, with a field for every
// keyword of draft 2020-12 and the draft-07 keywords that 2020-12 replaced.
// It is meant to be written by hand, inferred with For, or loaded from JSON,
// and then compiled once with Resolve.
//
// The zero Schema, like the JSON value {}, accepts everything. Use True and
// False for the boolean schemas true and false; they marshal as such.
//
// Marshaling a Schema produces clean JSON: keywords whose field is empty are
// left out. Properties are written in PropertyOrder (then any others, sorted);
// unmarshaling records the document's order there, so a schema loaded from
// JSON and served again keeps its property order. Other maps are written in
// sorted key order. Numbers in Enum, Const, Examples and Extra decode as
// json.Number, so they keep their exact text.
type Schema struct {
	// Core keywords.

	// Schema ($schema) names the dialect (meta-schema) of a schema resource.
	Schema string
	// ID ($id) sets the schema's base URI and makes it a schema resource.
	ID string
	// Ref ($ref) applies the schema at a URI reference.
	Ref string
	// DynamicRef ($dynamicRef) is a reference resolved in the dynamic scope.
	DynamicRef string
	// Anchor ($anchor) names this schema for URI fragments ("#name").
	Anchor string
	// DynamicAnchor ($dynamicAnchor) names this schema for $dynamicRef.
	DynamicAnchor string
	// Vocabulary ($vocabulary) lists the vocabularies of a meta-schema.
	Vocabulary map[string]bool
	// Comment ($comment) is a note for schema authors; it has no effect.
	Comment string
	// Defs ($defs) holds reusable schemas.
	Defs map[string]*Schema
	// Definitions is draft-07's name for $defs.
	Definitions map[string]*Schema

	// Meta-data keywords.

	// Title is a short title for the instance.
	Title string
	// Description explains the instance; for tools it is read by the model.
	Description string
	// Default is the JSON value used when the instance is absent.
	Default json.RawMessage
	// Deprecated marks the instance as deprecated.
	Deprecated bool
	// ReadOnly marks the instance as managed by the owning authority.
	ReadOnly bool
	// WriteOnly marks the instance as never returned by the owning authority.
	WriteOnly bool
	// Examples are sample JSON values.
	Examples []any

	// Validation keywords for any instance.

	// Type is the single allowed type: "null", "boolean", "object", "array",
	// "number", "string" or "integer". It is ignored when Types is set.
	Type string
	// Types lists the allowed types, written as a JSON array.
	Types []string
	// Enum lists the allowed values.
	Enum []any
	// Const is the only allowed value; a nil Const means the keyword is
	// absent, and a pointer to nil means "const": null.
	Const *any

	// Validation keywords for numbers.

	// MultipleOf requires the number to be an integer multiple of it (> 0).
	MultipleOf *float64
	// Minimum is the inclusive lower bound.
	Minimum *float64
	// Maximum is the inclusive upper bound.
	Maximum *float64
	// ExclusiveMinimum is the exclusive lower bound.
	ExclusiveMinimum *float64
	// ExclusiveMaximum is the exclusive upper bound.
	ExclusiveMaximum *float64

	// Validation keywords for strings (lengths count Unicode code points).

	// MinLength is the minimum string length.
	MinLength *int
	// MaxLength is the maximum string length.
	MaxLength *int
	// Pattern is an ECMA-262 regular expression the string must match
	// (anywhere, unless anchored).
	Pattern string

	// Validation keywords for arrays.

	// MinItems is the minimum number of elements.
	MinItems *int
	// MaxItems is the maximum number of elements.
	MaxItems *int
	// UniqueItems requires all elements to be distinct.
	UniqueItems bool
	// MinContains is the minimum number of elements matching Contains.
	MinContains *int
	// MaxContains is the maximum number of elements matching Contains.
	MaxContains *int

	// Validation keywords for objects.

	// MinProperties is the minimum number of members.
	MinProperties *int
	// MaxProperties is the maximum number of members.
	MaxProperties *int
	// Required lists members that must be present.
	Required []string
	// DependentRequired lists, for a member name, the members it requires.
	DependentRequired map[string][]string

	// Applicator keywords.

	// AllOf requires every schema to match.
	AllOf []*Schema
	// AnyOf requires at least one schema to match.
	AnyOf []*Schema
	// OneOf requires exactly one schema to match.
	OneOf []*Schema
	// Not requires the schema not to match.
	Not *Schema
	// If selects Then (if it matches) or Else (if not).
	If *Schema
	// Then applies when If matches.
	Then *Schema
	// Else applies when If does not match.
	Else *Schema
	// DependentSchemas applies a schema when the named member is present.
	DependentSchemas map[string]*Schema
	// PrefixItems applies schemas to the leading elements by position.
	PrefixItems []*Schema
	// Items applies to every element after PrefixItems (in draft-07, to
	// every element).
	Items *Schema
	// ItemsArray is draft-07's array form of items: schemas by position.
	ItemsArray []*Schema
	// AdditionalItems is draft-07's schema for elements after ItemsArray.
	AdditionalItems *Schema
	// Contains requires elements matching it (see MinContains).
	Contains *Schema
	// Properties applies schemas to members by name.
	Properties map[string]*Schema
	// PropertyOrder is the order in which Properties are marshaled and
	// walked (see Schema.Props); names missing from it follow, sorted.
	// Unmarshal and For set it. It is not a JSON Schema keyword.
	PropertyOrder []string `json:"-"`
	// PatternProperties applies schemas to members whose name matches a
	// regular expression.
	PatternProperties map[string]*Schema
	// AdditionalProperties applies to members matched by neither Properties
	// nor PatternProperties; False() forbids them.
	AdditionalProperties *Schema
	// PropertyNames applies to every member name.
	PropertyNames *Schema
	// UnevaluatedItems applies to elements no other keyword evaluated.
	UnevaluatedItems *Schema
	// UnevaluatedProperties applies to members no other keyword evaluated.
	UnevaluatedProperties *Schema
	// DependencySchemas is the schema form of draft-07's dependencies.
	DependencySchemas map[string]*Schema
	// DependencyStrings is the array form of draft-07's dependencies.
	DependencyStrings map[string][]string

	// Format and content keywords.

	// Format names a semantic format such as "date-time" or "email". It is
	// an annotation unless ResolveOptions.AssertFormat is set.
	Format string
	// ContentEncoding names the encoding of a string's content, e.g. base64.
	ContentEncoding string
	// ContentMediaType is the media type of a string's content.
	ContentMediaType string
	// ContentSchema describes the decoded content.
	ContentSchema *Schema

	// Extra holds keywords this type has no field for, with their JSON
	// values decoded as by encoding/json (numbers as json.Number). They are
	// marshaled back and can be the target of a $ref JSON pointer.
	Extra map[string]any

	// boolean is 0 for an ordinary schema, boolTrue or boolFalse for the
	// boolean schemas.
	boolean uint8
	// lits keeps the JSON text of numeric keywords that float64 cannot hold
	// exactly, so that they compare and marshal exactly. A literal is used
	// only while its field still holds the value it was decoded as.
	lits *numLits
}

// numLits holds number literals, indexed by the litNum constants.
type numLits [5]string

const (
	litNumMultipleOf = iota
	litNumMinimum
	litNumMaximum
	litNumExclusiveMinimum
	litNumExclusiveMaximum
)

// numLiteral returns the exact text of a numeric keyword whose current
// value is v, or "".
func (s *Schema) numLiteral(which int, v *float64) string {
	if s.lits == nil || v == nil || s.lits[which] == "" {
		return ""
	}
	lit := s.lits[which]
	if f, _, _ := numberValue([]byte(lit), 0); f != *v {
		return "" // the field was changed since decoding
	}
	return lit
}

const (
	boolTrue  = 1
	boolFalse = 2
)

// True returns a new boolean schema true, which accepts every instance and
// marshals as true.
func True() *Schema { return &Schema{boolean: boolTrue} }

// False returns a new boolean schema false, which rejects every instance and
// marshals as false. It is what forbids extra members in
// AdditionalProperties: False().
func False() *Schema { return &Schema{boolean: boolFalse} }

// Boolean reports whether s is a boolean schema (made by True or False, or
// unmarshaled from true or false) and if so its value.
func (s *Schema) Boolean() (value, ok bool) {
	if s == nil || s.boolean == 0 {
		return false, false
	}
	return s.boolean == boolTrue, true
}

// Ptr returns a pointer to v, for the optional numeric fields:
// Schema{Minimum: jsonschema.Ptr(0.0), MaxLength: jsonschema.Ptr(64)}.
func Ptr[T any](v T) *T { return &v }

// Props returns an iterator over s.Properties in property order: names in
// PropertyOrder first (skipping names not in Properties), then the remaining
// names sorted.
func (s *Schema) Props() iter.Seq2[string, *Schema] {
	return func(yield func(string, *Schema) bool) {
		if s == nil {
			return
		}
		for _, name := range s.propertyNames() {
			if !yield(name, s.Properties[name]) {
				return
			}
		}
	}
}

// propertyNames returns the names of s.Properties in property order.
func (s *Schema) propertyNames() []string {
	if len(s.Properties) == 0 {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	seen := 0
	for _, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; ok && !slices.Contains(names, name) {
			names = append(names, name)
			seen++
		}
	}
	if seen == len(s.Properties) {
		return names
	}
	rest := make([]string, 0, len(s.Properties)-seen)
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Clone returns a deep copy of s: no *Schema, map or slice of the copy
// is shared with s (values inside Enum, Const, Examples and Extra are copied
// as JSON values).
func (s *Schema) Clone() *Schema {
	if s == nil {
		return nil
	}
	c := *s
	c.Vocabulary = cloneMap(s.Vocabulary, func(v bool) bool { return v })
	c.Defs = cloneSchemaMap(s.Defs)
	c.Definitions = cloneSchemaMap(s.Definitions)
	c.Default = slices.Clone(s.Default)
	c.Examples = cloneValues(s.Examples)
	c.Types = slices.Clone(s.Types)
	c.Enum = cloneValues(s.Enum)
	if s.Const != nil {
		v := cloneValue(*s.Const)
		c.Const = &v
	}
	c.MultipleOf = clonePtr(s.MultipleOf)
	c.Minimum = clonePtr(s.Minimum)
	c.Maximum = clonePtr(s.Maximum)
	c.ExclusiveMinimum = clonePtr(s.ExclusiveMinimum)
	c.ExclusiveMaximum = clonePtr(s.ExclusiveMaximum)
	c.MinLength = clonePtr(s.MinLength)
	c.MaxLength = clonePtr(s.MaxLength)
	c.MinItems = clonePtr(s.MinItems)
	c.MaxItems = clonePtr(s.MaxItems)
	c.MinContains = clonePtr(s.MinContains)
	c.MaxContains = clonePtr(s.MaxContains)
	c.MinProperties = clonePtr(s.MinProperties)
	c.MaxProperties = clonePtr(s.MaxProperties)
	c.Required = slices.Clone(s.Required)
	c.DependentRequired = cloneMap(s.DependentRequired, slices.Clone[[]string])
	c.AllOf = cloneSchemaSlice(s.AllOf)
	c.AnyOf = cloneSchemaSlice(s.AnyOf)
	c.OneOf = cloneSchemaSlice(s.OneOf)
	c.Not = s.Not.Clone()
	c.If = s.If.Clone()
	c.Then = s.Then.Clone()
	c.Else = s.Else.Clone()
	c.DependentSchemas = cloneSchemaMap(s.DependentSchemas)
	c.PrefixItems = cloneSchemaSlice(s.PrefixItems)
	c.Items = s.Items.Clone()
	c.ItemsArray = cloneSchemaSlice(s.ItemsArray)
	c.AdditionalItems = s.AdditionalItems.Clone()
	c.Contains = s.Contains.Clone()
	c.Properties = cloneSchemaMap(s.Properties)
	c.PropertyOrder = slices.Clone(s.PropertyOrder)
	c.PatternProperties = cloneSchemaMap(s.PatternProperties)
	c.AdditionalProperties = s.AdditionalProperties.Clone()
	c.PropertyNames = s.PropertyNames.Clone()
	c.UnevaluatedItems = s.UnevaluatedItems.Clone()
	c.UnevaluatedProperties = s.UnevaluatedProperties.Clone()
	c.DependencySchemas = cloneSchemaMap(s.DependencySchemas)
	c.DependencyStrings = cloneMap(s.DependencyStrings, slices.Clone[[]string])
	c.ContentSchema = s.ContentSchema.Clone()
	c.Extra = cloneMap(s.Extra, cloneValue)
	if s.lits != nil {
		lits := *s.lits
		c.lits = &lits
	}
	return &c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneMap[V any](m map[string]V, f func(V) V) map[string]V {
	if m == nil {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = f(v)
	}
	return c
}

func cloneSchemaMap(m map[string]*Schema) map[string]*Schema {
	return cloneMap(m, (*Schema).Clone)
}

func cloneSchemaSlice(ss []*Schema) []*Schema {
	if ss == nil {
		return nil
	}
	c := make([]*Schema, len(ss))
	for i, s := range ss {
		c[i] = s.Clone()
	}
	return c
}

func cloneValues(vs []any) []any {
	if vs == nil {
		return nil
	}
	c := make([]any, len(vs))
	for i, v := range vs {
		c[i] = cloneValue(v)
	}
	return c
}

// cloneValue deep-copies the maps and slices of a JSON value.
func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneMap(x, cloneValue)
	case []any:
		return cloneValues(x)
	}
	return v
}

// hasKeywords reports whether s has any keyword set (ignoring whether it
// is a boolean schema).
func (s *Schema) hasKeywords() bool {
	return s.Schema != "" || s.ID != "" || s.Ref != "" || s.DynamicRef != "" || s.Anchor != "" ||
		s.DynamicAnchor != "" || len(s.Vocabulary) > 0 || s.Comment != "" || len(s.Defs) > 0 ||
		len(s.Definitions) > 0 || s.Title != "" || s.Description != "" || len(s.Default) > 0 ||
		s.Deprecated || s.ReadOnly || s.WriteOnly || len(s.Examples) > 0 || s.Type != "" ||
		len(s.Types) > 0 || s.Enum != nil || s.Const != nil || s.MultipleOf != nil || s.Minimum != nil ||
		s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil ||
		s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || s.MinItems != nil ||
		s.MaxItems != nil || s.UniqueItems || s.MinContains != nil || s.MaxContains != nil ||
		s.MinProperties != nil || s.MaxProperties != nil || len(s.Required) > 0 ||
		len(s.DependentRequired) > 0 || len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 ||
		s.Not != nil || s.If != nil || s.Then != nil || s.Else != nil || len(s.DependentSchemas) > 0 ||
		len(s.PrefixItems) > 0 || s.Items != nil || len(s.ItemsArray) > 0 || s.AdditionalItems != nil ||
		s.Contains != nil || len(s.Properties) > 0 || len(s.PatternProperties) > 0 ||
		s.AdditionalProperties != nil || s.PropertyNames != nil || s.UnevaluatedItems != nil ||
		s.UnevaluatedProperties != nil || len(s.DependencySchemas) > 0 || len(s.DependencyStrings) > 0 ||
		s.Format != "" || s.ContentEncoding != "" || s.ContentMediaType != "" ||
		s.ContentSchema != nil || len(s.Extra) > 0
}
