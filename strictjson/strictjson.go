// Package strictjson encodes and decodes JSON by the rules the SDK applies to
// every MCP message, so that code beside the SDK (a tool that decodes its raw
// arguments, the auth, redis and otel modules, the gomcp command) reads JSON
// exactly as the SDK does.
//
// Decoding is strict, as MCP's security model needs:
//   - object member names match struct fields case-sensitively;
//   - an object with the same member name twice is rejected
//     ([ErrDuplicateName]), since a duplicate key is a classic way to smuggle
//     a value past one reader and not another;
//   - invalid UTF-8 is rejected;
//   - nesting of objects and arrays is bounded by [MaxDepth] ([ErrTooDeep]).
//
// Unknown members are ignored, so newer peers can add fields. Encoding sorts
// map keys, so equal values give equal bytes, and does not escape HTML
// characters.
package strictjson

import istrict "github.com/gomcp/sdk/internal/strictjson"

// MaxDepth is the deepest nesting of objects and arrays that [Unmarshal]
// accepts. MCP messages are shallow; tool arguments rarely pass ten levels.
const MaxDepth = istrict.DefaultMaxDepth

// ErrTooDeep is the error (tested with errors.Is) of [Unmarshal] for a text
// nested deeper than [MaxDepth].
var ErrTooDeep = istrict.ErrTooDeep

// ErrDuplicateName is the error (tested with errors.Is) of [Unmarshal] for an
// object that has the same member name twice.
var ErrDuplicateName = istrict.ErrDuplicateName

// Marshal returns the JSON encoding of v, with map keys sorted and HTML
// characters (<, >, &) left as they are.
func Marshal(v any) ([]byte, error) {
	return istrict.Marshal(v)
}

// Unmarshal decodes the JSON text data into v, which must be a non-nil
// pointer, under the rules of this package. It returns an error for anything
// those rules refuse; errors.Is tells [ErrDuplicateName] and [ErrTooDeep]
// apart.
func Unmarshal(data []byte, v any) error {
	return istrict.Unmarshal(data, v)
}
