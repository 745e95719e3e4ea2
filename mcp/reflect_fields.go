package mcp

import (
	"reflect"
	"sync"
)

// Every params and result struct of this package has a `Meta Meta` field,
// and every result a `ResultType string` field. The SDK reaches them through
// reflection, with the field index cached per type.

var (
	metaType       = reflect.TypeFor[Meta]()
	fieldIndexes   sync.Map // fieldKey -> int (-1 when absent)
	stringType     = reflect.TypeFor[string]()
	resultTypeName = "ResultType"
)

type fieldKey struct {
	t    reflect.Type
	name string
}

func fieldIndex(t reflect.Type, name string, ft reflect.Type) int {
	key := fieldKey{t, name}
	if i, ok := fieldIndexes.Load(key); ok {
		return i.(int)
	}
	idx := -1
	if f, ok := t.FieldByName(name); ok && len(f.Index) == 1 && f.Type == ft {
		idx = f.Index[0]
	}
	fieldIndexes.Store(key, idx)
	return idx
}

// structField returns the addressable field name of type ft in the struct v
// points to, or an invalid Value.
func structField(v any, name string, ft reflect.Type) reflect.Value {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	idx := fieldIndex(rv.Type().Elem(), name, ft)
	if idx < 0 {
		return reflect.Value{}
	}
	return rv.Elem().Field(idx)
}

// metaOf returns a pointer to the Meta field of the params or result v
// points to, or nil.
func metaOf(v any) *Meta {
	f := structField(v, "Meta", metaType)
	if !f.IsValid() {
		return nil
	}
	return f.Addr().Interface().(*Meta)
}

// resultTypeOf returns the ResultType of the result v points to.
func resultTypeOf(v any) string {
	f := structField(v, resultTypeName, stringType)
	if !f.IsValid() {
		return ""
	}
	return f.String()
}

// cloneParams returns a shallow copy of the params struct v points to, so
// the SDK can fill in _meta without changing the caller's value.
func cloneParams[P any](p *P) *P {
	if p == nil {
		return new(P)
	}
	c := *p
	return &c
}

// setCursor sets the Cursor field of the paginated params p points to.
func setCursor(p any, cursor string) {
	if f := structField(p, "Cursor", stringType); f.IsValid() {
		f.SetString(cursor)
	}
}
