// Package strictjson is the one place the SDK encodes and decodes JSON.
//
// Decoding is strict, as MCP's security model needs: object member names match
// struct fields case-sensitively, duplicate member names are rejected (a
// duplicate key is a classic message-smuggling vector), invalid UTF-8 is
// rejected, and nesting depth is bounded. Unknown members are ignored, so newer
// peers can add fields.
//
// The implementation uses github.com/go-json-experiment/json, the staging module
// of encoding/json/v2, whose defaults are exactly these rules. Keeping it behind
// this small package lets the SDK move to the standard library's v2 when it is
// stable without touching any other file.
package strictjson

import (
	"bytes"
	"errors"
	"fmt"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DefaultMaxDepth is the nesting depth (objects and arrays) accepted by
// [Unmarshal]. MCP messages are shallow; tool arguments rarely pass ten levels.
const DefaultMaxDepth = 128

// ErrTooDeep reports a JSON text nested deeper than allowed.
var ErrTooDeep = errors.New("json nesting too deep")

// ErrDuplicateName reports an object with the same member name twice.
var ErrDuplicateName = jsontext.ErrDuplicateName

var marshalOpts = json.JoinOptions(
	json.Deterministic(true),
	jsontext.EscapeForHTML(false),
)

// Marshal encodes v. Map keys are sorted, so output is deterministic.
func Marshal(v any) ([]byte, error) {
	return json.Marshal(v, marshalOpts)
}

// Unmarshal decodes data into v under the strict rules of this package, with
// nesting bounded by [DefaultMaxDepth].
func Unmarshal(data []byte, v any) error {
	if err := CheckDepth(data, DefaultMaxDepth); err != nil {
		return err
	}
	return UnmarshalTrusted(data, v)
}

// UnmarshalTrusted is [Unmarshal] without the depth check, for bytes already
// checked (for example, the params of a message whose envelope was checked).
func UnmarshalTrusted(data []byte, v any) error {
	return json.Unmarshal(data, v)
}

// CheckDepth returns [ErrTooDeep] if data nests objects and arrays deeper than
// max. It scans bytes only and does not validate the JSON otherwise.
func CheckDepth(data []byte, max int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch depthClass[data[i]] {
		case classQuote:
			end := stringEnd(data, i)
			if end < 0 {
				return nil // unterminated string: nothing nests after it
			}
			i = end
		case classOpen:
			depth++
			if depth > max {
				return fmt.Errorf("%w: more than %d levels", ErrTooDeep, max)
			}
		case classClose:
			depth--
		}
	}
	return nil
}

// Byte classes of CheckDepth.
const (
	classOther = iota
	classQuote
	classOpen
	classClose
)

var depthClass = [256]uint8{'"': classQuote, '{': classOpen, '[': classOpen, '}': classClose, ']': classClose}

// stringEnd returns the index of the quote that ends the string whose
// opening quote is at data[open], or -1 if the string does not end: the
// first quote after it not escaped by an odd run of backslashes.
func stringEnd(data []byte, open int) int {
	for j := open + 1; ; j++ {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		backslashes := 0
		for m := j - 1; m > open && data[m] == '\\'; m-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j
		}
	}
}

// Valid reports whether data is one syntactically valid JSON value.
func Valid(data []byte) bool {
	return jsontext.Value(data).IsValid()
}
