package jsonschema

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// appendJSON appends node i as compact JSON.
func (t *tape) appendJSON(dst []byte, i uint32) []byte {
	nd := &t.nodes[i]
	switch nd.kind {
	case kindNull:
		return append(dst, "null"...)
	case kindTrue:
		return append(dst, "true"...)
	case kindFalse:
		return append(dst, "false"...)
	case kindNumber:
		if nd.flags&flagNoText == 0 {
			return append(dst, t.text(i)...)
		}
		if nd.flags&flagI64 != 0 {
			return strconv.AppendInt(dst, nd.i, 10)
		}
		return appendFloat(dst, nd.f)
	case kindString:
		return appendQuoted(dst, t.text(i))
	case kindArray:
		dst = append(dst, '[')
		for e := i + 1; e < nd.next; e = t.nodes[e].next {
			if e != i+1 {
				dst = append(dst, ',')
			}
			dst = t.appendJSON(dst, e)
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	k := i + 1
	for m := uint32(0); m < nd.n; m++ {
		if m > 0 {
			dst = append(dst, ',')
		}
		dst = appendQuoted(dst, t.text(k))
		dst = append(dst, ':')
		dst = t.appendJSON(dst, k+1)
		k = t.nodes[k+1].next
	}
	return append(dst, '}')
}

// pointerTo returns the JSON Pointer, from the tape's root value, of node
// target.
func (t *tape) pointerTo(target uint32) string {
	var b strings.Builder
	i := uint32(0)
	for i != target && i < uint32(len(t.nodes)) {
		nd := &t.nodes[i]
		next := i
		switch nd.kind {
		case kindArray:
			idx := 0
			for e := i + 1; e < nd.next; e = t.nodes[e].next {
				if target >= e && target < t.nodes[e].next {
					b.WriteByte('/')
					b.WriteString(strconv.Itoa(idx))
					next = e
					break
				}
				idx++
			}
		case kindObject:
			k := i + 1
			for m := uint32(0); m < nd.n; m++ {
				if target >= k && target < t.nodes[k+1].next {
					b.WriteByte('/')
					b.WriteString(escapePointer(string(t.text(k))))
					next = k + 1
					break
				}
				k = t.nodes[k+1].next
			}
		}
		if next == i || target == next-1 {
			break // not found, or target is the key of the member found
		}
		i = next
	}
	return b.String()
}

// escapePointer escapes a JSON Pointer reference token.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// appendQuoted appends s as a JSON string. Like encoding/json it escapes
// control characters, quotes, backslashes, U+2028 and U+2029; unlike it, it
// leaves <, > and & alone (encoding/json escapes those itself when it embeds
// the result of a MarshalJSON method).
func appendQuoted[S string | []byte](dst []byte, s S) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		var r rune
		var size int
		switch x := any(s).(type) {
		case string:
			r, size = utf8.DecodeRuneInString(x[i:])
		case []byte:
			r, size = utf8.DecodeRune(x[i:])
		}
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendFloat appends f as encoding/json does (ES6 number formatting).
func appendFloat(dst []byte, f float64) []byte {
	abs := f
	if abs < 0 {
		abs = -abs
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9.
		m := len(dst) - n
		if m >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}
