package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
)

// scratchTape is a tape with its parser, pooled for decoding schemas.
type scratchTape struct {
	t tape
	p parser
}

var tapePool = sync.Pool{New: func() any {
	st := new(scratchTape)
	st.p.t = &st.t
	return st
}}

func getTape() *scratchTape {
	st := tapePool.Get().(*scratchTape)
	st.t.reset()
	st.p.depth = 0
	return st
}

func putTape(st *scratchTape) {
	st.t.src = nil
	if cap(st.t.nodes) > 1<<16 || cap(st.t.scratch) > 1<<20 {
		return // do not keep huge buffers alive
	}
	tapePool.Put(st)
}

// UnmarshalJSON decodes a schema from JSON: an object, or true or false. The
// input must be strict JSON (no duplicate keys, valid UTF-8). Keywords with a
// value of the wrong JSON type are an error; unknown keywords go to Extra.
func (s *Schema) UnmarshalJSON(data []byte) error {
	st := getTape()
	defer putTape(st)
	st.t.src = data
	if err := st.p.parseInto(data, false); err != nil {
		return fmt.Errorf("jsonschema: %w", err)
	}
	d := schemaDecoder{t: &st.t}
	return d.decodeInto(s, 0)
}

// schemaDecoder builds Schemas from a tape.
type schemaDecoder struct {
	t *tape
}

// errorf reports a problem with the value at node v.
func (d *schemaDecoder) errorf(v uint32, format string, args ...any) error {
	ptr := d.t.pointerTo(v)
	if ptr == "" {
		ptr = "the root"
	}
	return fmt.Errorf("jsonschema: schema at %s: %s", ptr, fmt.Sprintf(format, args...))
}

// schema decodes the schema at node i.
func (d *schemaDecoder) schema(i uint32) (*Schema, error) {
	s := new(Schema)
	if err := d.decodeInto(s, i); err != nil {
		return nil, err
	}
	return s, nil
}

func (d *schemaDecoder) decodeInto(s *Schema, i uint32) error {
	t := d.t
	*s = Schema{}
	switch t.nodes[i].kind {
	case kindTrue:
		s.boolean = boolTrue
		return nil
	case kindFalse:
		s.boolean = boolFalse
		return nil
	case kindObject:
	default:
		return d.errorf(i, "a schema must be an object or a boolean")
	}
	k := i + 1
	for m := uint32(0); m < t.nodes[i].n; m++ {
		v := k + 1
		if err := d.keyword(s, t.text(k), v); err != nil {
			return err
		}
		k = t.nodes[v].next
	}
	return nil
}

// keyword decodes one keyword with value node v into s.
func (d *schemaDecoder) keyword(s *Schema, kw []byte, v uint32) error {
	var err error
	switch string(kw) {
	case "$schema":
		s.Schema, err = d.str(v)
	case "$id":
		s.ID, err = d.str(v)
	case "$ref":
		s.Ref, err = d.str(v)
	case "$dynamicRef":
		s.DynamicRef, err = d.str(v)
	case "$anchor":
		s.Anchor, err = d.str(v)
	case "$dynamicAnchor":
		s.DynamicAnchor, err = d.str(v)
	case "$vocabulary":
		s.Vocabulary, err = d.vocabulary(v)
	case "$comment":
		s.Comment, err = d.str(v)
	case "$defs":
		s.Defs, _, err = d.schemaMap(v)
	case "definitions":
		s.Definitions, _, err = d.schemaMap(v)
	default:
		return d.validation(s, kw, v)
	}
	return err
}

// validation decodes the meta-data and validation keywords.
func (d *schemaDecoder) validation(s *Schema, kw []byte, v uint32) error {
	var err error
	switch string(kw) {
	case "title":
		s.Title, err = d.str(v)
	case "description":
		s.Description, err = d.str(v)
	case "default":
		s.Default = d.t.appendJSON(nil, v)
	case "deprecated":
		s.Deprecated, err = d.boolean(v)
	case "readOnly":
		s.ReadOnly, err = d.boolean(v)
	case "writeOnly":
		s.WriteOnly, err = d.boolean(v)
	case "examples":
		s.Examples, err = d.values(v)
	case "type":
		err = d.typ(s, v)
	case "enum":
		s.Enum, err = d.values(v)
		if err == nil && s.Enum == nil {
			s.Enum = []any{}
		}
	case "const":
		c := d.t.toAny(v)
		s.Const = &c
	case "multipleOf":
		s.MultipleOf, err = d.float(s, litNumMultipleOf, v)
	case "minimum":
		s.Minimum, err = d.float(s, litNumMinimum, v)
	case "maximum":
		s.Maximum, err = d.float(s, litNumMaximum, v)
	case "exclusiveMinimum":
		s.ExclusiveMinimum, err = d.float(s, litNumExclusiveMinimum, v)
	case "exclusiveMaximum":
		s.ExclusiveMaximum, err = d.float(s, litNumExclusiveMaximum, v)
	case "minLength":
		s.MinLength, err = d.count(v)
	case "maxLength":
		s.MaxLength, err = d.count(v)
	case "pattern":
		s.Pattern, err = d.str(v)
	case "minItems":
		s.MinItems, err = d.count(v)
	case "maxItems":
		s.MaxItems, err = d.count(v)
	case "uniqueItems":
		s.UniqueItems, err = d.boolean(v)
	case "minContains":
		s.MinContains, err = d.count(v)
	case "maxContains":
		s.MaxContains, err = d.count(v)
	case "minProperties":
		s.MinProperties, err = d.count(v)
	case "maxProperties":
		s.MaxProperties, err = d.count(v)
	case "required":
		s.Required, err = d.strings(v)
	case "dependentRequired":
		s.DependentRequired, err = d.stringsMap(v)
	default:
		return d.applicator(s, kw, v)
	}
	return err
}

// applicator decodes the keywords whose values are schemas, and unknown
// keywords.
func (d *schemaDecoder) applicator(s *Schema, kw []byte, v uint32) error {
	var err error
	switch string(kw) {
	case "allOf":
		s.AllOf, err = d.schemaList(v)
	case "anyOf":
		s.AnyOf, err = d.schemaList(v)
	case "oneOf":
		s.OneOf, err = d.schemaList(v)
	case "not":
		s.Not, err = d.schema(v)
	case "if":
		s.If, err = d.schema(v)
	case "then":
		s.Then, err = d.schema(v)
	case "else":
		s.Else, err = d.schema(v)
	case "dependentSchemas":
		s.DependentSchemas, _, err = d.schemaMap(v)
	case "prefixItems":
		s.PrefixItems, err = d.schemaList(v)
	case "items":
		if d.t.nodes[v].kind == kindArray {
			s.ItemsArray, err = d.schemaList(v)
		} else {
			s.Items, err = d.schema(v)
		}
	case "additionalItems":
		s.AdditionalItems, err = d.schema(v)
	case "contains":
		s.Contains, err = d.schema(v)
	case "properties":
		s.Properties, s.PropertyOrder, err = d.schemaMap(v)
	case "patternProperties":
		s.PatternProperties, _, err = d.schemaMap(v)
	case "additionalProperties":
		s.AdditionalProperties, err = d.schema(v)
	case "propertyNames":
		s.PropertyNames, err = d.schema(v)
	case "unevaluatedItems":
		s.UnevaluatedItems, err = d.schema(v)
	case "unevaluatedProperties":
		s.UnevaluatedProperties, err = d.schema(v)
	case "dependencies":
		err = d.dependencies(s, v)
	case "format":
		s.Format, err = d.str(v)
	case "contentEncoding":
		s.ContentEncoding, err = d.str(v)
	case "contentMediaType":
		s.ContentMediaType, err = d.str(v)
	case "contentSchema":
		s.ContentSchema, err = d.schema(v)
	default:
		if s.Extra == nil {
			s.Extra = make(map[string]any)
		}
		s.Extra[string(kw)] = d.t.toAny(v)
	}
	return err
}

func (d *schemaDecoder) str(v uint32) (string, error) {
	if d.t.nodes[v].kind != kindString {
		return "", d.errorf(v, "must be a string")
	}
	return string(d.t.text(v)), nil
}

func (d *schemaDecoder) boolean(v uint32) (bool, error) {
	switch d.t.nodes[v].kind {
	case kindTrue:
		return true, nil
	case kindFalse:
		return false, nil
	}
	return false, d.errorf(v, "must be a boolean")
}

// float decodes a numeric keyword. If float64 cannot hold the number
// exactly (more than 15 significant digits), its text is kept in s.lits.
func (d *schemaDecoder) float(s *Schema, which int, v uint32) (*float64, error) {
	nd := &d.t.nodes[v]
	if nd.kind != kindNumber {
		return nil, d.errorf(v, "must be a number")
	}
	if math.IsInf(nd.f, 0) {
		return nil, d.errorf(v, "number %s is out of range", d.t.text(v))
	}
	if nd.flags&flagApprox != 0 {
		if s.lits == nil {
			s.lits = new(numLits)
		}
		s.lits[which] = string(d.t.text(v))
	}
	f := nd.f
	return &f, nil
}

// count decodes a non-negative integer (1.0 counts as 1).
func (d *schemaDecoder) count(v uint32) (*int, error) {
	nd := &d.t.nodes[v]
	if nd.kind != kindNumber || nd.flags&flagInt == 0 {
		return nil, d.errorf(v, "must be a non-negative integer")
	}
	if nd.flags&flagI64 == 0 || nd.i < 0 || nd.i > math.MaxInt32 {
		return nil, d.errorf(v, "integer %s is out of range", d.t.text(v))
	}
	n := int(nd.i)
	return &n, nil
}

func (d *schemaDecoder) strings(v uint32) ([]string, error) {
	t := d.t
	if t.nodes[v].kind != kindArray {
		return nil, d.errorf(v, "must be an array of strings")
	}
	out := make([]string, 0, t.nodes[v].n)
	for e := v + 1; e < t.nodes[v].next; e = t.nodes[e].next {
		if t.nodes[e].kind != kindString {
			return nil, d.errorf(e, "must be a string")
		}
		out = append(out, string(t.text(e)))
	}
	return out, nil
}

func (d *schemaDecoder) stringsMap(v uint32) (map[string][]string, error) {
	t := d.t
	if t.nodes[v].kind != kindObject {
		return nil, d.errorf(v, "must be an object")
	}
	out := make(map[string][]string, t.nodes[v].n)
	k := v + 1
	for m := uint32(0); m < t.nodes[v].n; m++ {
		name := string(t.text(k))
		list, err := d.strings(k + 1)
		if err != nil {
			return nil, err
		}
		out[name] = list
		k = t.nodes[k+1].next
	}
	return out, nil
}

func (d *schemaDecoder) vocabulary(v uint32) (map[string]bool, error) {
	t := d.t
	if t.nodes[v].kind != kindObject {
		return nil, d.errorf(v, "must be an object")
	}
	out := make(map[string]bool, t.nodes[v].n)
	k := v + 1
	for m := uint32(0); m < t.nodes[v].n; m++ {
		b, err := d.boolean(k + 1)
		if err != nil {
			return nil, err
		}
		out[string(t.text(k))] = b
		k = t.nodes[k+1].next
	}
	return out, nil
}

func (d *schemaDecoder) values(v uint32) ([]any, error) {
	t := d.t
	if t.nodes[v].kind != kindArray {
		return nil, d.errorf(v, "must be an array")
	}
	if t.nodes[v].n == 0 {
		return nil, nil
	}
	out := make([]any, 0, t.nodes[v].n)
	for e := v + 1; e < t.nodes[v].next; e = t.nodes[e].next {
		out = append(out, t.toAny(e))
	}
	return out, nil
}

func (d *schemaDecoder) typ(s *Schema, v uint32) error {
	t := d.t
	switch t.nodes[v].kind {
	case kindString:
		s.Type = string(t.text(v))
		return nil
	case kindArray:
		list, err := d.strings(v)
		if err != nil {
			return err
		}
		s.Types = list
		return nil
	}
	return d.errorf(v, "must be a string or an array of strings")
}

func (d *schemaDecoder) schemaList(v uint32) ([]*Schema, error) {
	t := d.t
	if t.nodes[v].kind != kindArray {
		return nil, d.errorf(v, "must be an array of schemas")
	}
	out := make([]*Schema, 0, t.nodes[v].n)
	for e := v + 1; e < t.nodes[v].next; e = t.nodes[e].next {
		s, err := d.schema(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// schemaMap decodes an object of schemas, returning also the member order.
func (d *schemaDecoder) schemaMap(v uint32) (map[string]*Schema, []string, error) {
	t := d.t
	if t.nodes[v].kind != kindObject {
		return nil, nil, d.errorf(v, "must be an object of schemas")
	}
	n := t.nodes[v].n
	out := make(map[string]*Schema, n)
	order := make([]string, 0, n)
	k := v + 1
	for m := uint32(0); m < n; m++ {
		name := string(t.text(k))
		s, err := d.schema(k + 1)
		if err != nil {
			return nil, nil, err
		}
		out[name] = s
		order = append(order, name)
		k = t.nodes[k+1].next
	}
	return out, order, nil
}

func (d *schemaDecoder) dependencies(s *Schema, v uint32) error {
	t := d.t
	if t.nodes[v].kind != kindObject {
		return d.errorf(v, "must be an object")
	}
	k := v + 1
	for m := uint32(0); m < t.nodes[v].n; m++ {
		name := string(t.text(k))
		if t.nodes[k+1].kind == kindArray {
			list, err := d.strings(k + 1)
			if err != nil {
				return err
			}
			if s.DependencyStrings == nil {
				s.DependencyStrings = make(map[string][]string)
			}
			s.DependencyStrings[name] = list
		} else {
			sub, err := d.schema(k + 1)
			if err != nil {
				return err
			}
			if s.DependencySchemas == nil {
				s.DependencySchemas = make(map[string]*Schema)
			}
			s.DependencySchemas[name] = sub
		}
		k = t.nodes[k+1].next
	}
	return nil
}

// toAny converts node i to a Go value as encoding/json would with UseNumber:
// map[string]any, []any, json.Number, string, bool or nil.
func (t *tape) toAny(i uint32) any {
	nd := &t.nodes[i]
	switch nd.kind {
	case kindNull:
		return nil
	case kindTrue:
		return true
	case kindFalse:
		return false
	case kindNumber:
		return json.Number(t.numText(i))
	case kindString:
		return string(t.text(i))
	case kindArray:
		out := make([]any, 0, nd.n)
		for e := i + 1; e < nd.next; e = t.nodes[e].next {
			out = append(out, t.toAny(e))
		}
		return out
	}
	out := make(map[string]any, nd.n)
	k := i + 1
	for m := uint32(0); m < nd.n; m++ {
		out[string(t.text(k))] = t.toAny(k + 1)
		k = t.nodes[k+1].next
	}
	return out
}
