package jsonschema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ForOptions configures For and ForType. A nil *ForOptions means defaults.
type ForOptions struct {
	// IgnoreInvalidTypes leaves out struct fields, map values and slice
	// elements whose type has no JSON form (channels, functions, complex
	// numbers) instead of returning an error.
	IgnoreInvalidTypes bool
	// AllowAdditionalProperties leaves additionalProperties unset on
	// schemas inferred from structs, so objects may carry extra members.
	// By default it is false, as encoding/json would drop them.
	AllowAdditionalProperties bool
	// TypeSchemas gives the schema of specific types, overriding
	// inference. Each use gets its own copy.
	TypeSchemas map[reflect.Type]*Schema
	// Nullable lets pointers, slices and maps that encoding/json may write
	// as null (all but struct fields with omitempty or omitzero) allow
	// null, with type [T, "null"]. By default each inferred schema has a
	// single type, the portable form; the nullable flag of the jsonschema
	// struct tag asks for null on one field.
	Nullable bool
}

// A Schemaer is a type that provides its own JSON Schema. For and ForType
// call JSONSchema on the zero value of a type implementing it (by value or
// pointer receiver) and use a copy of the result.
type Schemaer interface {
	JSONSchema() *Schema
}

// For infers the JSON Schema of the values of type T, as encoding/json
// marshals and unmarshals them. See ForType.
func For[T any](opts *ForOptions) (*Schema, error) {
	return ForType(reflect.TypeFor[T](), opts)
}

// ForType infers the JSON Schema of the values of type t, such that
// json.Marshal of any value of t without nil pointers, slices or maps
// validates against it (with opts.Nullable, of any value at all):
//
//   - bool is "boolean"; integer types are "integer" (sized ones with their
//     range), floats "number", strings "string";
//   - a pointer is the schema of what it points to, and slices and maps
//     have a single type too: every inferred schema names one JSON type,
//     which clients that map tool schemas to one-type dialects require.
//     A nil value that is written as null therefore does not validate;
//     ask for nullability with opts.Nullable (every pointer, slice and
//     map that may be written as null gets type [T, "null"]: all but
//     struct fields with omitempty or omitzero) or per field with the
//     nullable tag flag;
//   - slices and arrays are "array" ([N]T with minItems = maxItems = N);
//     []byte is a base64 "string";
//   - maps with string, integer or encoding.TextMarshaler keys are
//     "object" with additionalProperties (integer keys get propertyNames);
//   - structs are "object" with a property per field that encoding/json
//     marshals (its visibility, embedding and json tag rules, including
//     ",string"), in field order; fields without omitempty or omitzero are
//     required, except those promoted through an embedded pointer; and
//     additionalProperties is false unless opts allows extras;
//   - time.Time is a "date-time" string, json.RawMessage and interfaces
//     accept anything, json.Number is a "number", *big.Int an "integer";
//     other types with MarshalText are strings;
//   - a type implementing Schemaer, or listed in opts.TypeSchemas, gets
//     that schema; another json.Marshaler is an error, since its JSON form
//     is unknown;
//   - a recursive type is described once under $defs and referred to with
//     $ref ("#" for the root type itself).
//
// Struct fields may have a jsonschema tag. A tag that does not start with
// one of the keys below is the field's description, as in
// `jsonschema:"the user's name"`. Otherwise it is a comma-separated list of
// key=value items: description, title, enum (values separated by |),
// default (JSON, or a plain string for string fields), minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength,
// pattern, format, minItems, maxItems; and the flags deprecated,
// uniqueItems, readOnly, writeOnly and nullable (the field also allows
// null). A comma not followed by a key
// belongs to the previous value: `jsonschema:"description=a, b,minLength=1"`.
func ForType(t reflect.Type, opts *ForOptions) (*Schema, error) {
	if t == nil {
		return nil, fmt.Errorf("jsonschema: ForType of a nil type")
	}
	if opts == nil {
		opts = &ForOptions{}
	}
	root := t
	for root.Kind() == reflect.Pointer {
		root = root.Elem()
	}
	b := &inferrer{opts: opts, root: root, inProgress: map[reflect.Type]bool{}, recursive: map[reflect.Type]bool{}}
	s, err := b.schema(t, true)
	if err != nil {
		return nil, err
	}
	if len(b.defs) > 0 {
		s.Defs = b.defs
	}
	return s, nil
}

// inferrer holds the state of one ForType call.
type inferrer struct {
	opts       *ForOptions
	root       reflect.Type
	inProgress map[reflect.Type]bool
	recursive  map[reflect.Type]bool
	defs       map[string]*Schema
	defNames   map[reflect.Type]string
	depth      int
}

var (
	timeType       = reflect.TypeFor[time.Time]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	numberType     = reflect.TypeFor[json.Number]()
	bigIntType     = reflect.TypeFor[big.Int]()
	schemaerType   = reflect.TypeFor[Schemaer]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	textMarshType  = reflect.TypeFor[encoding.TextMarshaler]()
)

// implements reports whether t or *t implements iface.
func implements(t, iface reflect.Type) bool {
	var bit uint8
	switch iface {
	case schemaerType:
		bit = traitSchemaer
	case marshalerType:
		bit = traitMarshaler
	case textMarshType:
		bit = traitTextMarshaler
	default:
		return implementsSlow(t, iface)
	}
	return typeTraits(t)&bit != 0
}

func implementsSlow(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface))
}

// Traits of a type, cached since reflect's Implements is slow.
const (
	traitSchemaer uint8 = 1 << iota
	traitMarshaler
	traitTextMarshaler
)

var traitCache sync.Map // reflect.Type -> uint8

func typeTraits(t reflect.Type) uint8 {
	if v, ok := traitCache.Load(t); ok {
		return v.(uint8)
	}
	var traits uint8
	if implementsSlow(t, schemaerType) {
		traits |= traitSchemaer
	}
	if implementsSlow(t, marshalerType) {
		traits |= traitMarshaler
	}
	if implementsSlow(t, textMarshType) {
		traits |= traitTextMarshaler
	}
	traitCache.Store(t, traits)
	return traits
}

// schema infers the schema of t. nullable says whether a nil value of t
// marshals as null (false for struct fields with omitempty or omitzero).
func (b *inferrer) schema(t reflect.Type, nullable bool) (*Schema, error) {
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > maxSchemaDepth {
		return nil, fmt.Errorf("jsonschema: type %v nested too deeply", t)
	}
	if s, ok := b.opts.TypeSchemas[t]; ok {
		return s.Clone(), nil
	}
	if implements(t, schemaerType) {
		return schemaerSchema(t)
	}
	if t.Kind() == reflect.Pointer {
		s, err := b.schema(t.Elem(), nullable)
		if err != nil || !nullable || !b.opts.Nullable {
			return s, err
		}
		return addNull(s), nil
	}
	if t.Name() != "" && b.inProgress[t] {
		b.recursive[t] = true
		return &Schema{Ref: b.refTo(t)}, nil
	}
	if s, ok, err := b.special(t); ok || err != nil {
		return s, err
	}
	named := t.Name() != "" && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map ||
		t.Kind() == reflect.Slice || t.Kind() == reflect.Array)
	if named {
		b.inProgress[t] = true
		defer delete(b.inProgress, t)
	}
	s, err := b.byKind(t, nullable)
	if err != nil || !named || !b.recursive[t] || t == b.root {
		return s, err
	}
	// A recursive type other than the root: describe it once in $defs.
	name := b.defName(t)
	if b.defs == nil {
		b.defs = map[string]*Schema{}
	}
	if _, done := b.defs[name]; !done {
		b.defs[name] = s
	}
	return &Schema{Ref: b.refTo(t)}, nil
}

func schemaerSchema(t reflect.Type) (*Schema, error) {
	v := reflect.New(t)
	var s *Schema
	if t.Implements(schemaerType) {
		s = v.Elem().Interface().(Schemaer).JSONSchema()
	} else {
		s = v.Interface().(Schemaer).JSONSchema()
	}
	if s == nil {
		return nil, fmt.Errorf("jsonschema: %v.JSONSchema returned nil", t)
	}
	return s.Clone(), nil
}

// refTo returns the $ref for a recursive type.
func (b *inferrer) refTo(t reflect.Type) string {
	if t == b.root {
		return "#"
	}
	return "#/$defs/" + escapePointer(b.defName(t))
}

var defNameChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// defName returns a unique $defs name for t.
func (b *inferrer) defName(t reflect.Type) string {
	if name, ok := b.defNames[t]; ok {
		return name
	}
	if b.defNames == nil {
		b.defNames = map[reflect.Type]string{}
	}
	base := defNameChars.ReplaceAllString(t.Name(), "_")
	name := base
	for k := 2; ; k++ {
		taken := false
		for _, other := range b.defNames {
			if other == name {
				taken = true
			}
		}
		if !taken {
			break
		}
		name = fmt.Sprintf("%s%d", base, k)
	}
	b.defNames[t] = name
	return name
}

// special handles types with a fixed schema.
func (b *inferrer) special(t reflect.Type) (*Schema, bool, error) {
	switch t {
	case timeType:
		return &Schema{Type: "string", Format: "date-time"}, true, nil
	case rawMessageType:
		return &Schema{}, true, nil
	case numberType:
		return &Schema{Type: "number"}, true, nil
	case bigIntType:
		return &Schema{Type: "integer"}, true, nil
	}
	if implements(t, marshalerType) {
		return nil, true, fmt.Errorf("jsonschema: %v has a MarshalJSON method, so its JSON form is unknown; "+
			"give it a JSONSchema method or use ForOptions.TypeSchemas", t)
	}
	if implements(t, textMarshType) {
		return &Schema{Type: "string"}, true, nil
	}
	return nil, false, nil
}

// intRanges are the bounds of the sized integer types.
var intRanges = map[reflect.Kind][2]float64{
	reflect.Int8:   {math.MinInt8, math.MaxInt8},
	reflect.Int16:  {math.MinInt16, math.MaxInt16},
	reflect.Int32:  {math.MinInt32, math.MaxInt32},
	reflect.Uint8:  {0, math.MaxUint8},
	reflect.Uint16: {0, math.MaxUint16},
	reflect.Uint32: {0, math.MaxUint32},
}

func (b *inferrer) byKind(t reflect.Type, nullable bool) (*Schema, error) {
	switch k := t.Kind(); k {
	case reflect.Bool:
		return &Schema{Type: "boolean"}, nil
	case reflect.Int, reflect.Int64:
		return &Schema{Type: "integer"}, nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		r := intRanges[k]
		return &Schema{Type: "integer", Minimum: Ptr(r[0]), Maximum: Ptr(r[1])}, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return &Schema{Type: "integer", Minimum: Ptr(0.0)}, nil
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}, nil
	case reflect.String:
		return &Schema{Type: "string"}, nil
	case reflect.Interface:
		return &Schema{}, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !implements(t.Elem(), marshalerType) && !implements(t.Elem(), textMarshType) {
			s := &Schema{Type: "string", ContentEncoding: "base64"}
			return b.nullableIf(s, nullable), nil
		}
		items, err := b.schema(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		return b.nullableIf(&Schema{Type: "array", Items: items}, nullable), nil
	case reflect.Array:
		items, err := b.schema(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items, MinItems: Ptr(t.Len()), MaxItems: Ptr(t.Len())}, nil
	case reflect.Map:
		return b.mapSchema(t, nullable)
	case reflect.Struct:
		return b.structSchema(t)
	}
	return nil, fmt.Errorf("jsonschema: type %v has no JSON form", t)
}

// nullableIf adds null to s if nullable and the options ask for it.
func (b *inferrer) nullableIf(s *Schema, nullable bool) *Schema {
	if nullable && b.opts.Nullable {
		return addNull(s)
	}
	return s
}

// addNull adds "null" to the types s allows.
func addNull(s *Schema) *Schema {
	switch {
	case len(s.Types) > 0:
		for _, t := range s.Types {
			if t == "null" {
				return s
			}
		}
		s.Types = append(s.Types, "null")
	case s.Type != "":
		if s.Type != "null" {
			s.Types = []string{s.Type, "null"}
			s.Type = ""
		}
	case s.Ref != "":
		return &Schema{AnyOf: []*Schema{s, {Type: "null"}}}
	}
	return s // schemas without a type already allow null
}

func (b *inferrer) mapSchema(t reflect.Type, nullable bool) (*Schema, error) {
	s := &Schema{Type: "object"}
	key := t.Key()
	switch key.Kind() {
	case reflect.String:
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !implements(key, textMarshType) {
			s.PropertyNames = &Schema{Pattern: "^-?(0|[1-9][0-9]*)$"}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if !implements(key, textMarshType) {
			s.PropertyNames = &Schema{Pattern: "^(0|[1-9][0-9]*)$"}
		}
	default:
		if !implements(key, textMarshType) {
			return nil, fmt.Errorf("jsonschema: map key type %v has no JSON form", key)
		}
	}
	v, err := b.schema(t.Elem(), true)
	if err != nil {
		if b.opts.IgnoreInvalidTypes {
			return b.nullableIf(s, nullable), nil
		}
		return nil, err
	}
	s.AdditionalProperties = v
	return b.nullableIf(s, nullable), nil
}

func (b *inferrer) structSchema(t reflect.Type) (*Schema, error) {
	s := &Schema{Type: "object"}
	fields := jsonFields(t)
	for _, f := range fields {
		omit := f.omitEmpty || f.omitZero
		var fs *Schema
		var err error
		if f.quoted {
			fs = &Schema{Type: "string"}
			if f.typ.Kind() == reflect.Pointer && !omit && b.opts.Nullable {
				fs = addNull(fs)
			}
		} else {
			fs, err = b.schema(f.typ, !omit)
		}
		if err != nil {
			if b.opts.IgnoreInvalidTypes {
				continue
			}
			return nil, fmt.Errorf("%w (field %s of %v)", err, f.name, t)
		}
		if err := applyTag(fs, f); err != nil {
			return nil, fmt.Errorf("jsonschema: field %s of %v: %w", f.name, t, err)
		}
		if tagFlag(f, "nullable") {
			fs = addNull(fs)
		}
		if s.Properties == nil {
			s.Properties = make(map[string]*Schema, len(fields))
			s.PropertyOrder = make([]string, 0, len(fields))
		}
		s.Properties[f.name] = fs
		s.PropertyOrder = append(s.PropertyOrder, f.name)
		if !omit && !f.viaPtr {
			s.Required = append(s.Required, f.name)
		}
	}
	if !b.opts.AllowAdditionalProperties {
		s.AdditionalProperties = False()
	}
	return s, nil
}

// tagValueKind names the JSON type of s for parsing tag values.
func tagValueKind(s *Schema) string {
	t := s.Type
	if t == "" {
		for _, x := range s.Types {
			if x != "null" {
				t = x
			}
		}
	}
	return strings.TrimSpace(t)
}
