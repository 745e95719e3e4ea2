package mcp

import (
	"bytes"
	"encoding/base64"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// base64Data is binary data carried as a base64 JSON string (image and
// audio content, blob resource contents), decoded as it is read: from the
// message's bytes straight into its own buffer, without a string of the
// encoding in between, so a large blob costs its size once.
type base64Data struct {
	b   []byte
	set bool // the member was present and not null
}

// UnmarshalJSON decodes the base64 string data; null leaves v unset.
func (v *base64Data) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*v = base64Data{}
		return nil
	}
	b, err := decodeBase64Value(data)
	if err != nil {
		return fmt.Errorf("invalid base64: %w", err)
	}
	*v = base64Data{b: b, set: true}
	return nil
}

// decodeBase64Value decodes base64 data from v, a JSON string. The result
// is never nil for a string, so that empty data is told from none.
func decodeBase64Value(v jsontext.Value) ([]byte, error) {
	v = bytes.Trim(v, " \t\r\n") // JSON whitespace around the value, if any
	if len(v) < 2 || v.Kind() != '"' {
		return nil, fmt.Errorf("a JSON string is expected, not %s", v.Kind())
	}
	text := []byte(v[1 : len(v)-1])
	if bytes.IndexByte(text, '\\') >= 0 { // escapes, rare in base64: unquote first
		b, err := jsontext.AppendUnquote(nil, v)
		if err != nil {
			return nil, err
		}
		text = b
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(out, text)
	if err != nil {
		return nil, err
	}
	return out[:n:n], nil
}
