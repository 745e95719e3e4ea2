package jsonrpc2

import (
	"unicode/utf8"

	"github.com/gomcp/sdk/internal/strictjson"
)

// The quickest form of the fast path: one hand-written pass over a small,
// plain message that proves it valid under the strict rules (exact names,
// no duplicate names at any level, valid UTF-8, depth bounded as
// strictjson.CheckDepth bounds it) and finds its members. It only ever
// says "valid" or "not sure": anything it does not handle simply (escaped
// member names, escaped surrogates, objects with many members, errors of
// any kind) goes on to the token reader of envelope.go and, past it, to
// the full decoder, so what is accepted and how errors read do not change.

// maxScanNames bounds the member names an envelopeScanner holds for its
// duplicate checks: those of the objects open at one time.
const maxScanNames = 32

// An envelopeScanner checks one message. It lives on the caller's stack.
type envelopeScanner struct {
	data  []byte
	i     int
	names [maxScanNames][2]int32 // spans of the names of the open objects
	n     int                    // names in use
}

// scanEnvelope reads the members of the single JSON object data holds
// into m, reporting true only when data is certainly valid under the
// strict rules and m holds its members. false means "not sure": the
// caller must decide another way.
func scanEnvelope(data []byte, m *messageMembers) bool {
	if len(data) > 1<<20 {
		return false // int32 spans; large messages take the token reader
	}
	s := envelopeScanner{data: data}
	s.space()
	if !s.consume('{') {
		return false
	}
	for first := true; ; first = false {
		s.space()
		if s.consume('}') {
			break
		}
		if !first && (!s.consume(',') || !s.spaceThen()) {
			return false
		}
		name, ok := s.name(0)
		if !ok || !s.colon() {
			return false
		}
		start := s.i
		if !s.value(1) {
			return false
		}
		v := data[start:s.i]
		switch string(name) {
		case "jsonrpc":
			m.version = v
		case "id":
			m.id = v
		case "method":
			m.method = v
		case "params":
			m.params = v
		case "result":
			m.result = v
		case "error":
			return false
		}
	}
	s.space()
	return s.i == len(data)
}

// spaceThen skips whitespace and reports whether input remains.
func (s *envelopeScanner) spaceThen() bool {
	s.space()
	return s.i < len(s.data)
}

func (s *envelopeScanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *envelopeScanner) consume(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *envelopeScanner) colon() bool {
	s.space()
	if !s.consume(':') {
		return false
	}
	s.space()
	return true
}

// name reads a member name without escapes of the object whose names
// start at index base of s.names, and records it, refusing a duplicate.
func (s *envelopeScanner) name(base int) ([]byte, bool) {
	start := s.i
	if !s.consume('"') {
		return nil, false
	}
	ascii := true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			name := s.data[start+1 : s.i]
			s.i++
			if !ascii && !utf8.Valid(name) {
				return nil, false
			}
			for _, sp := range s.names[base:s.n] {
				if string(s.data[sp[0]:sp[1]]) == string(name) {
					return nil, false // a duplicate: the full decoder says so
				}
			}
			if s.n == maxScanNames {
				return nil, false
			}
			s.names[s.n] = [2]int32{int32(start + 1), int32(s.i - 1)}
			s.n++
			return name, true
		case c == '\\' || c < 0x20:
			return nil, false // escaped names are compared unescaped: not here
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return nil, false
}

// value checks one value at nesting depth depth (the top-level object is
// depth 1, so a value that opens an object or array is at depth+1).
func (s *envelopeScanner) value(depth int) bool {
	if s.i >= len(s.data) {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return depth < strictjson.DefaultMaxDepth && s.object(depth+1)
	case c == '[':
		return depth < strictjson.DefaultMaxDepth && s.array(depth+1)
	case c == '"':
		return s.str()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

func (s *envelopeScanner) object(depth int) bool {
	s.i++ // '{'
	base := s.n
	for first := true; ; first = false {
		s.space()
		if s.consume('}') {
			s.n = base // the object's names are done with
			return true
		}
		if !first && (!s.consume(',') || !s.spaceThen()) {
			return false
		}
		if _, ok := s.name(base); !ok || !s.colon() || !s.value(depth) {
			return false
		}
	}
}

func (s *envelopeScanner) array(depth int) bool {
	s.i++ // '['
	for first := true; ; first = false {
		s.space()
		if s.consume(']') {
			return true
		}
		if !first {
			if !s.consume(',') {
				return false
			}
			s.space()
		}
		if !s.value(depth) {
			return false
		}
	}
}

// str checks a string value: valid UTF-8, no control characters, and
// escapes other than of surrogates (left to the other decoders).
func (s *envelopeScanner) str() bool {
	s.i++ // '"'
	start, ascii := s.i, true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			ok := ascii || utf8.Valid(s.data[start:s.i])
			s.i++
			return ok
		case c < 0x20:
			return false
		case c == '\\':
			if !s.escape() {
				return false
			}
			continue
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return false
}

// escape checks the escape sequence at s.i and moves past it.
func (s *envelopeScanner) escape() bool {
	if s.i+1 >= len(s.data) {
		return false
	}
	switch s.data[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.data) {
			return false
		}
		var r rune
		for _, h := range s.data[s.i+2 : s.i+6] {
			switch {
			case h >= '0' && h <= '9':
				r = r<<4 | rune(h-'0')
			case h >= 'a' && h <= 'f':
				r = r<<4 | rune(h-'a'+10)
			case h >= 'A' && h <= 'F':
				r = r<<4 | rune(h-'A'+10)
			default:
				return false
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			return false // surrogates: pairs and lone halves are for the others
		}
		s.i += 6
		return true
	}
	return false
}

func (s *envelopeScanner) literal(lit string) bool {
	if len(s.data)-s.i < len(lit) || string(s.data[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// number checks a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *envelopeScanner) number() bool {
	s.consume('-')
	switch {
	case s.consume('0'):
	case s.i < len(s.data) && s.data[s.i] >= '1' && s.data[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.consume('.') && !s.digits() {
		return false
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if !s.consume('+') {
			s.consume('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits skips digits and reports whether there was at least one.
func (s *envelopeScanner) digits() bool {
	start := s.i
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
