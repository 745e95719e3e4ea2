package jsonrpc2

import (
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// An ID identifies a request and the response that answers it. JSON-RPC 2.0
// allows a string or a number; MCP allows strings and integers. The zero ID
// is null: it is what a notification has and what a response to an
// unparseable request carries.
type ID struct {
	str   string
	num   int64
	isStr bool
	isNum bool
}

// Int64ID returns the integer ID i.
func Int64ID(i int64) ID { return ID{num: i, isNum: true} }

// StringID returns the string ID s.
func StringID(s string) ID { return ID{str: s, isStr: true} }

// IsValid reports whether id is a string or an integer, not null.
func (id ID) IsValid() bool { return id.isStr || id.isNum }

// Raw returns the ID as a Go value: string, int64, or nil for null.
func (id ID) Raw() any {
	switch {
	case id.isStr:
		return id.str
	case id.isNum:
		return id.num
	}
	return nil
}

// String formats the ID for logs: a quoted string, a number, or null.
func (id ID) String() string {
	switch {
	case id.isStr:
		return strconv.Quote(id.str)
	case id.isNum:
		return strconv.FormatInt(id.num, 10)
	}
	return "null"
}

// MarshalJSON encodes the ID as a JSON string, integer or null.
func (id ID) MarshalJSON() ([]byte, error) { return id.appendJSON(nil), nil }

func (id ID) appendJSON(b []byte) []byte {
	switch {
	case id.isStr:
		b, _ = jsontext.AppendQuote(b, id.str)
		return b
	case id.isNum:
		return strconv.AppendInt(b, id.num, 10)
	}
	return append(b, "null"...)
}

// UnmarshalJSON decodes a JSON string, integer or null into the ID.
func (id *ID) UnmarshalJSON(data []byte) error {
	parsed, err := parseID(data)
	if err != nil {
		return err
	}
	*id = parsed
	return nil
}

// parseID decodes raw JSON (already known to be one valid value) as an ID.
func parseID(data []byte) (ID, error) {
	if len(data) == 0 || string(data) == "null" {
		return ID{}, nil
	}
	if data[0] == '"' {
		s, err := jsontext.AppendUnquote(nil, data)
		if err != nil {
			return ID{}, fmt.Errorf("%w: bad id %s", ErrInvalidRequest, data)
		}
		return StringID(string(s)), nil
	}
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return ID{}, fmt.Errorf("%w: id must be a string or an integer, got %s", ErrInvalidRequest, data)
	}
	return Int64ID(n), nil
}
