package jsonschema

import (
	"encoding/base64"
	"encoding/json"
)

// contentCheck returns the check for contentEncoding and contentMediaType,
// used when ResolveOptions.AssertContent is set. Only the base64 encoding
// and the application/json media type are checked.
func contentCheck(encoding, mediaType string) func(string) bool {
	b64 := encoding == "base64"
	js := mediaType == "application/json"
	if !b64 && !js {
		return nil
	}
	return func(s string) bool {
		data := []byte(s)
		if b64 {
			dec, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return false
			}
			data = dec
		}
		return !js || json.Valid(data)
	}
}
