package mcp

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// unquoteName returns the text of a JSON string already validated (with
// its message): without escapes it is the bytes between the quotes; with
// escapes, unquoteEscaped reads it into one allocation, and what that
// leaves (escaped surrogates) goes to jsontext.AppendUnquote.
func unquoteName(v jsontext.Value) (string, error) {
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), nil
	}
	if s, ok := unquoteEscaped(v); ok {
		return s, nil
	}
	b, err := jsontext.AppendUnquote(nil, v)
	return string(b), err
}

// unquoteEscaped unquotes the validated JSON string v, copying the runs
// between escapes whole, and reports false (for the general unquoting)
// on an escape it does not read: an escaped surrogate, or anything
// invalid.
func unquoteEscaped(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	var b strings.Builder
	b.Grow(len(body))
	for {
		k := bytes.IndexByte(body, '\\')
		if k < 0 {
			b.Write(body)
			return b.String(), true
		}
		b.Write(body[:k])
		if k+1 >= len(body) {
			return "", false
		}
		n := 2
		switch c := body[k+1]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(body[k+2:])
			if !ok || utf8.RuneLen(r) < 0 { // a surrogate half: not here
				return "", false
			}
			b.WriteRune(r)
			n = 6
		default:
			return "", false
		}
		body = body[k+n:]
	}
}

// hex4 reads the four hexadecimal digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, h := range b[:4] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
