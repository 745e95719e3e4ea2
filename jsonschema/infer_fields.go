package jsonschema

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	name      string
	index     []int
	typ       reflect.Type
	tagged    bool // the name comes from a json tag
	omitEmpty bool
	omitZero  bool
	quoted    bool // ",string"
	viaPtr    bool // promoted through an embedded pointer to a struct
	tag       reflect.StructTag
}

var fieldCache sync.Map // reflect.Type -> []jsonField

// jsonFields returns the fields encoding/json marshals for struct type t, in
// its order, applying its rules: exported fields and embedded structs,
// json tag names and options, and the dominance rules for conflicting names
// (the shallowest field wins; at equal depth a tagged one; otherwise none).
func jsonFields(t reflect.Type) []jsonField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]jsonField)
	}
	fields := collectFields(t)
	fieldCache.Store(t, fields)
	return fields
}

func collectFields(t reflect.Type) []jsonField {
	type queued struct {
		typ    reflect.Type
		index  []int
		viaPtr bool
	}
	current := []queued{}
	next := []queued{{typ: t}}
	visited := map[reflect.Type]bool{}
	var fields []jsonField
	var count map[reflect.Type]int
	nextCount := map[reflect.Type]int{}
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			visited[q.typ] = true
			for i := 0; i < q.typ.NumField(); i++ {
				sf := q.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clone(q.index), i)
				ft := sf.Type
				viaPtr := q.viaPtr
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := newJSONField(sf, name, opts, ft, index, viaPtr)
					fields = append(fields, f)
					if count[q.typ] > 1 {
						// Two embedded copies of one type at this depth: the
						// fields annihilate each other; keep two so the
						// dominance step drops them.
						fields = append(fields, f)
					}
					continue
				}
				// An embedded struct without a name: look inside it next.
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index, viaPtr: viaPtr || sf.Type.Kind() == reflect.Pointer})
				}
			}
		}
	}
	return dominantFields(fields)
}

// newJSONField describes struct field sf, whose json tag gave name and
// opts; ft is its type with one unnamed pointer removed.
func newJSONField(sf reflect.StructField, name, opts string, ft reflect.Type, index []int, viaPtr bool) jsonField {
	f := jsonField{
		name:      name,
		index:     index,
		typ:       sf.Type,
		tagged:    name != "",
		omitEmpty: hasOption(opts, "omitempty"),
		omitZero:  hasOption(opts, "omitzero"),
		viaPtr:    viaPtr,
		tag:       sf.Tag,
	}
	if f.name == "" {
		f.name = sf.Name
	}
	if hasOption(opts, "string") {
		switch ft.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.String:
			f.quoted = true
		}
	}
	return f
}

// dominantFields applies encoding/json's rules for fields with the same
// name, and sorts the result into the order of the struct's fields.
func dominantFields(fields []jsonField) []jsonField {
	byName := map[string][]int{}
	for i, f := range fields {
		byName[f.name] = append(byName[f.name], i)
	}
	var out []jsonField
	for i, f := range fields {
		group := byName[f.name]
		if group[0] != i {
			continue // handled with the first of its name
		}
		if len(group) == 1 {
			out = append(out, f)
			continue
		}
		depth := len(fields[group[0]].index)
		var best []int
		for _, k := range group {
			if d := len(fields[k].index); d < depth {
				depth = d
			}
		}
		for _, k := range group {
			if len(fields[k].index) == depth {
				best = append(best, k)
			}
		}
		if len(best) > 1 {
			var tagged []int
			for _, k := range best {
				if fields[k].tagged {
					tagged = append(tagged, k)
				}
			}
			best = tagged
		}
		if len(best) == 1 {
			out = append(out, fields[best[0]])
		}
	}
	slices.SortStableFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validTagName reports whether encoding/json accepts name from a json tag.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
