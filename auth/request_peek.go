package auth

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// An operation is what one JSON-RPC request in a POST acts on: its method
// and the tool or prompt name or resource URI in its params.
type operation struct {
	method, name string
}

// peekMessage is the part of a JSON-RPC message the middleware reads.
type peekMessage struct {
	Method string         `json:"method"`
	Params jsontext.Value `json:"params"`
}

// peekParams is the part of params that names what a request acts on.
type peekParams struct {
	Name jsontext.Value `json:"name"`
	URI  jsontext.Value `json:"uri"`
}

var (
	errBodyTooLarge = errors.New("request body too large")
	errBadBody      = errors.New("request body is not a JSON-RPC message or batch")
)

// peekOperations reads the body of r, bounded by max bytes, replaces it
// with an identical reader for the next handler, and returns the
// operations of the requests in it (one, or several for a batch).
// Responses and notifications without a method give nothing. The body is
// decoded with the same strict rules the MCP handler applies, so both see
// the same method and name.
func peekOperations(r *http.Request, max int64, ops []operation) ([]operation, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	r.Body.Close()
	if err != nil {
		return ops, err
	}
	if int64(len(body)) > max {
		return ops, errBodyTooLarge
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []peekMessage
		if err := strictjson.Unmarshal(body, &batch); err != nil {
			return ops, errBadBody
		}
		for i := range batch {
			ops = batch[i].appendTo(ops)
		}
		return ops, nil
	}
	var m peekMessage
	if err := strictjson.Unmarshal(body, &m); err != nil {
		return ops, errBadBody
	}
	return m.appendTo(ops), nil
}

func (m *peekMessage) appendTo(ops []operation) []operation {
	if m.Method == "" {
		return ops
	}
	op := operation{method: m.Method}
	p := bytes.TrimLeft(m.Params, " \t\r\n")
	if len(p) > 0 && p[0] == '{' {
		var pp peekParams
		if strictjson.UnmarshalTrusted(p, &pp) == nil {
			if s, ok := jsonString(pp.Name); ok {
				op.name = s
			} else if s, ok := jsonString(pp.URI); ok {
				op.name = s
			}
		}
	}
	return append(ops, op)
}

// jsonString returns the value of a JSON string.
func jsonString(v jsontext.Value) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	var s string
	if strictjson.UnmarshalTrusted(v, &s) != nil {
		return "", false
	}
	return s, true
}

// headerOperation returns the operation named by the 2026-07-28 request
// metadata headers, which the MCP handler checks against the body (so a
// request whose headers lie is refused there).
func headerOperation(h http.Header) (operation, bool) {
	m := h.Values("Mcp-Method")
	if len(m) != 1 {
		return operation{}, false
	}
	op := operation{method: m[0]}
	n := h.Values("Mcp-Name")
	switch len(n) {
	case 0:
	case 1:
		name, ok := decodeMcpName(n[0])
		if !ok {
			return operation{}, false
		}
		op.name = name
	default:
		return operation{}, false
	}
	return op, true
}

// decodeMcpName decodes an Mcp-Name header value: plain visible ASCII, or
// the base64 form "=?base64?...?=".
func decodeMcpName(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) >= len(prefix)+len(suffix) && v[:len(prefix)] == prefix && v[len(v)-len(suffix):] == suffix {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(prefix) : len(v)-len(suffix)])
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", false
		}
	}
	return v, true
}
