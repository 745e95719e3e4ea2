package auth

import (
	"strconv"
	"unicode/utf8"
)

// jsonScanner reads JSON held in s for the direct path of decodeClaims:
// the common forms only, validated as strictly as
// the general decoders validate them. ok turns false (and stays false) at
// the first thing it does not handle itself (escapes where a value is
// kept, escaped surrogates, deep nesting, many members, duplicate names)
// or that is malformed; the caller then leaves the input to the general
// decoder, which decides.
type jsonScanner struct {
	s   string
	raw []byte // the same bytes as s, for jsontext.Value members
	i   int
	ok  bool
	one *[1]string // storage of a one-string audience
}

// maxScanDepth and maxScanNames bound the nesting and the members per
// object the scanner handles itself.
const (
	maxScanDepth = 16
	maxScanNames = 16
)

func (sc *jsonScanner) fail() { sc.ok = false }

func (sc *jsonScanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

// byte consumes b, or fails.
func (sc *jsonScanner) byte(b byte) bool {
	if sc.ok && sc.peek() == b {
		sc.i++
		return true
	}
	sc.fail()
	return false
}

func (sc *jsonScanner) ws() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// str reads a string without escapes or control characters, in valid
// UTF-8.
func (sc *jsonScanner) str() string {
	if !sc.byte('"') {
		return ""
	}
	start, ascii := sc.i, true
	for ; sc.i < len(sc.s); sc.i++ {
		switch c := sc.s[sc.i]; {
		case c == '"':
			v := sc.s[start:sc.i]
			sc.i++
			if !ascii && !utf8.ValidString(v) {
				sc.fail()
			}
			return v
		case c == '\\' || c < 0x20:
			sc.fail()
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	sc.fail()
	return ""
}

// skipStr reads a string that may have escapes, checking them. Escaped
// surrogates are left to the general decoder.
func (sc *jsonScanner) skipStr() {
	if !sc.byte('"') {
		return
	}
	start, ascii := sc.i, true
	for sc.i < len(sc.s) {
		switch c := sc.s[sc.i]; {
		case c == '"':
			if !ascii && !utf8.ValidString(sc.s[start:sc.i]) {
				sc.fail()
			}
			sc.i++
			return
		case c == '\\':
			if !sc.escape() {
				sc.fail()
				return
			}
		case c < 0x20:
			sc.fail()
			return
		default:
			ascii = ascii && c < utf8.RuneSelf
			sc.i++
		}
	}
	sc.fail()
}

// escape reads one escape sequence other than a surrogate's.
func (sc *jsonScanner) escape() bool {
	if sc.i+1 >= len(sc.s) {
		return false
	}
	switch sc.s[sc.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		sc.i += 2
		return true
	case 'u':
		if sc.i+6 > len(sc.s) {
			return false
		}
		h := sc.s[sc.i+2 : sc.i+6]
		for j := range 4 {
			if c := h[j]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		if (h[0] == 'd' || h[0] == 'D') && (h[1] >= '8' && h[1] <= '9' || h[1] >= 'a' && h[1] <= 'f' || h[1] >= 'A' && h[1] <= 'F') {
			return false // a surrogate
		}
		sc.i += 6
		return true
	}
	return false
}

// literal consumes the literal word (true, false, null).
func (sc *jsonScanner) literal(word string) {
	if len(sc.s)-sc.i >= len(word) && sc.s[sc.i:sc.i+len(word)] == word {
		sc.i += len(word)
		return
	}
	sc.fail()
}

func (sc *jsonScanner) strOrNull() string {
	if sc.peek() == 'n' {
		sc.literal("null")
		return ""
	}
	return sc.str()
}

func (sc *jsonScanner) numOrNull() float64 {
	if sc.peek() == 'n' {
		sc.literal("null")
		return 0
	}
	f, err := strconv.ParseFloat(sc.number(), 64)
	if err != nil {
		sc.fail()
	}
	return f
}

// number reads a number of the JSON grammar (RFC 8259 section 6) and
// returns its text.
func (sc *jsonScanner) number() string {
	start := sc.i
	if sc.peek() == '-' {
		sc.i++
	}
	switch c := sc.peek(); {
	case c == '0':
		sc.i++
	case c >= '1' && c <= '9':
		sc.digits()
	default:
		sc.fail()
		return ""
	}
	if sc.peek() == '.' {
		sc.i++
		if sc.digits() == 0 {
			sc.fail()
		}
	}
	if c := sc.peek(); c == 'e' || c == 'E' {
		sc.i++
		if c := sc.peek(); c == '+' || c == '-' {
			sc.i++
		}
		if sc.digits() == 0 {
			sc.fail()
		}
	}
	return sc.s[start:sc.i]
}

func (sc *jsonScanner) digits() int {
	start := sc.i
	for sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
		sc.i++
	}
	return sc.i - start
}

// members reads an object at nesting depth, calling member after each
// name and its colon to read the value.
func (sc *jsonScanner) members(depth int, member func(name string)) {
	sc.byte('{')
	sc.ws()
	if sc.peek() == '}' {
		sc.i++
		return
	}
	var names [maxScanNames]string
	n := 0
	for sc.ok {
		sc.ws()
		name := sc.str()
		if n == len(names) || hasName(names[:n], name) {
			sc.fail()
			return
		}
		names[n] = name
		n++
		sc.ws()
		sc.byte(':')
		sc.ws()
		if !sc.ok {
			return
		}
		member(name)
		sc.ws()
		if sc.peek() == ',' {
			sc.i++
			continue
		}
		sc.byte('}')
		return
	}
}

// skip reads any value at nesting depth, checking its syntax.
func (sc *jsonScanner) skip(depth int) {
	if depth > maxScanDepth {
		sc.fail()
		return
	}
	switch c := sc.peek(); {
	case c == '"':
		sc.skipStr()
	case c == '-' || c >= '0' && c <= '9':
		sc.number()
	case c == 't':
		sc.literal("true")
	case c == 'f':
		sc.literal("false")
	case c == 'n':
		sc.literal("null")
	case c == '{':
		sc.members(depth, func(string) { sc.skip(depth + 1) })
	case c == '[':
		sc.i++
		sc.ws()
		if sc.peek() == ']' {
			sc.i++
			return
		}
		for sc.ok {
			sc.ws()
			sc.skip(depth + 1)
			sc.ws()
			if sc.peek() == ',' {
				sc.i++
				continue
			}
			sc.byte(']')
			return
		}
	default:
		sc.fail()
	}
}

func hasName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
