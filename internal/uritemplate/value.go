package uritemplate

import "slices"

// Kind is the kind of a Value.
type Kind uint8

// The kinds of values RFC 6570 §2.3 defines.
const (
	// KindString is a string.
	KindString Kind = iota
	// KindList is a list of strings.
	KindList
	// KindAssoc is an associative array: name/value pairs in order.
	KindAssoc
)

// A Value is the value of a template variable: a string, a list of strings,
// or an associative array of name/value pairs. An empty list or
// associative array counts as undefined in an expansion, as RFC 6570 says.
type Value struct {
	kind  Kind
	str   string
	items []string // list items, or names and values alternately
}

// String returns a string value.
func String(s string) Value { return Value{kind: KindString, str: s} }

// List returns a list value.
func List(items ...string) Value { return Value{kind: KindList, items: items} }

// Assoc returns an associative array value from names and values given
// alternately: Assoc("a", "1", "b", "2"). A trailing name without a value
// gets the empty value.
func Assoc(namesAndValues ...string) Value {
	items := namesAndValues
	if len(items)%2 == 1 {
		items = append(slices.Clone(items), "")
	}
	return Value{kind: KindAssoc, items: items}
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// String returns a string value's string; for a list or associative array
// it returns "".
func (v Value) String() string { return v.str }

// List returns the items of a list value, or the names and values of an
// associative array alternately; for a string it returns nil.
func (v Value) List() []string { return v.items }

// defined reports whether v counts as defined in an expansion.
func (v Value) defined() bool { return v.kind == KindString || len(v.items) > 0 }

// Equal reports whether v and w are the same value.
func (v Value) Equal(w Value) bool {
	return v.kind == w.kind && v.str == w.str && slices.Equal(v.items, w.items)
}
