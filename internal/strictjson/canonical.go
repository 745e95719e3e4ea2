package strictjson

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// Canonical returns the JSON text data in the canonical form of RFC 8785
// (the JSON Canonicalization Scheme): no insignificant whitespace, object
// members sorted by name, numbers and strings in their shortest form, so
// that equal JSON values give equal bytes. As in RFC 8785, numbers are read
// as IEEE 754 doubles. It rejects what [Unmarshal] rejects: invalid JSON,
// duplicate member names, invalid UTF-8 and nesting deeper than
// [DefaultMaxDepth]. data is not modified.
func Canonical(data []byte) ([]byte, error) {
	if err := CheckDepth(data, DefaultMaxDepth); err != nil {
		return nil, err
	}
	v := jsontext.Value(bytes.Clone(data))
	if err := v.Canonicalize(); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return v, nil
}
