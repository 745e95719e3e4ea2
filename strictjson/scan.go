package strictjson

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Scanning: the fast paths of the SDK's decoders (the JSON-RPC envelope,
// params and results already validated with their message, JWT claims)
// read small, plain JSON directly with a Scanner instead of a tokenizer.
// A Scanner reads the members of one object, or the elements of one
// array, held in memory, and gives their raw values. It only ever says
// "read" or "not sure": anything it does not handle simply (escaped member
// names, escaped surrogates, many member names open at once, large input,
// errors of any kind) ends the reading with Complete false, and the
// caller leaves the input to the decoder of this package, which decides.
// FuzzScanner checks that what a Scanner reads, the decoder reads alike.

// maxScanNames bounds the member names a validating Scanner holds for its
// duplicate checks: those of the objects open at one time.
const maxScanNames = 32

// maxScanBytes bounds the input of a validating Scanner (its name spans
// are int32s); larger input is left to the decoder.
const maxScanBytes = 1 << 20

// A Scanner reads one JSON object or array held in memory. Make it with
// ScanObject or ScanArray; it lives on the caller's stack.
//
// A validating Scanner checks the container and every value in it under
// this package's rules: exact syntax, valid UTF-8, no duplicate member
// names at any level, nesting within MaxDepth. A trusted Scanner,
// for input validated before (the params of a decoded message), only
// finds where values end; on other input it stops rather than misreads,
// but what it reads is not checked.
type Scanner struct {
	data     []byte
	i        int
	trusted  bool
	first    bool
	complete bool
	names    [maxScanNames][2]int32 // spans of the names of the open objects
	n        int                    // names in use
}

// ScanObject starts reading the object data holds (whitespace around it
// allowed). ok is false if data does not start with an object.
func ScanObject(data []byte, trusted bool) (s Scanner, ok bool) {
	return scanOpen(data, trusted, '{')
}

// ScanArray starts reading the array data holds. ok is false if data does
// not start with an array.
func ScanArray(data []byte, trusted bool) (s Scanner, ok bool) {
	return scanOpen(data, trusted, '[')
}

func scanOpen(data []byte, trusted bool, open byte) (Scanner, bool) {
	if !trusted && len(data) > maxScanBytes {
		return Scanner{}, false
	}
	s := Scanner{data: data, trusted: trusted, first: true}
	s.space()
	if !s.consume(open) {
		return Scanner{}, false
	}
	return s, true
}

// Member returns the next member of an object: its name, which has no
// escapes, and its raw value. more is false at the end of the object, or
// when the rest cannot be read so; Complete then tells which.
func (s *Scanner) Member() (name, value []byte, more bool) {
	if !s.next('}') {
		return nil, nil, false
	}
	name, ok := s.name(0)
	if !ok {
		return nil, nil, false
	}
	s.space()
	if !s.consume(':') {
		return nil, nil, false
	}
	s.space()
	start := s.i
	if !s.value(1) {
		return nil, nil, false
	}
	return name, s.data[start:s.i], true
}

// Element returns the raw value of the next element of an array. more is
// false at the end of the array, or when the rest cannot be read so;
// Complete then tells which.
func (s *Scanner) Element() (value []byte, more bool) {
	if !s.next(']') {
		return nil, false
	}
	start := s.i
	if !s.value(1) {
		return nil, false
	}
	return s.data[start:s.i], true
}

// Complete reports whether the container was read to its end, with
// nothing but whitespace after it, and (validating) found valid.
func (s *Scanner) Complete() bool { return s.complete }

// next moves to the next member or element, past the comma. It returns
// false at the closing bracket close (setting complete when nothing
// follows) or at anything else unexpected.
func (s *Scanner) next(close byte) bool {
	if s.data == nil || s.complete {
		return false
	}
	s.space()
	if s.consume(close) {
		s.space()
		s.complete = s.i == len(s.data)
		s.data = nil
		return false
	}
	if !s.first {
		if !s.consume(',') {
			s.data = nil
			return false
		}
		s.space()
	}
	s.first = false
	return true
}

func (s *Scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *Scanner) consume(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// name reads a member name without escapes of the object whose names
// start at index base of s.names and, validating, records it, refusing a
// duplicate.
func (s *Scanner) name(base int) ([]byte, bool) {
	start := s.i
	if !s.consume('"') {
		return s.fail()
	}
	ascii := true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			name := s.data[start+1 : s.i]
			s.i++
			if s.trusted {
				return name, true
			}
			if !ascii && !utf8.Valid(name) {
				return s.fail()
			}
			for _, sp := range s.names[base:s.n] {
				if string(s.data[sp[0]:sp[1]]) == string(name) {
					return s.fail() // a duplicate: the decoder says so
				}
			}
			if s.n == maxScanNames {
				return s.fail()
			}
			s.names[s.n] = [2]int32{int32(start + 1), int32(s.i - 1)}
			s.n++
			return name, true
		case c == '\\':
			return s.fail() // escaped names are compared unescaped: not here
		case c < 0x20 && !s.trusted:
			return s.fail()
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return s.fail()
}

// fail ends the reading, incomplete.
func (s *Scanner) fail() ([]byte, bool) {
	s.data = nil
	return nil, false
}

// value reads one value at nesting depth (the container scanned is depth
// 1, so a value that opens an object or array is at depth+1), ending the
// reading if it cannot.
func (s *Scanner) value(depth int) bool {
	ok := s.trusted && s.trustedValue() || !s.trusted && s.checkedValue(depth)
	if !ok {
		s.data = nil
	}
	return ok
}

// checkedValue checks one value under the strict rules.
func (s *Scanner) checkedValue(depth int) bool {
	if s.i >= len(s.data) {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return depth < MaxDepth && s.object(depth+1)
	case c == '[':
		return depth < MaxDepth && s.array(depth+1)
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

func (s *Scanner) object(depth int) bool {
	s.i++ // '{'
	base := s.n
	for first := true; ; first = false {
		s.space()
		if s.consume('}') {
			s.n = base // the object's names are done with
			return true
		}
		if !first {
			if !s.consume(',') {
				return false
			}
			s.space()
		}
		if _, ok := s.name(base); !ok {
			return false
		}
		s.space()
		if !s.consume(':') {
			return false
		}
		s.space()
		if !s.checkedValue(depth) {
			return false
		}
	}
}

func (s *Scanner) array(depth int) bool {
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
		if !s.checkedValue(depth) {
			return false
		}
	}
}

// str checks a string value: valid UTF-8, no control characters, and
// escapes other than of surrogates (left to the decoder). Runs of plain
// bytes are skipped eight at a time (plainRun).
func (s *Scanner) str() bool {
	s.i++ // '"'
	start, ascii := s.i, true
	for s.i < len(s.data) {
		var wide bool
		s.i, wide = plainRun(s.data, s.i)
		ascii = ascii && !wide
		if s.i >= len(s.data) {
			break
		}
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

// Bytes of a word, for plainRun's tests of eight bytes at once.
const (
	ones  = 0x0101010101010101 // 0x01 in every byte
	highs = 0x8080808080808080 // 0x80 in every byte
)

// plainRun returns the index of the first quote, backslash or control
// character at or after i in data, looking at eight bytes at a time, or
// the index of the last bytes that do not fill a word; and whether it
// passed a byte outside ASCII. The tests are exact for the lowest byte
// they flag: (x-ones)&^x&highs flags the zero bytes of x, and
// (x-n*ones)&^x&highs the bytes below n, with no false flag below the
// first true one (a borrow only moves up).
func plainRun(data []byte, i int) (int, bool) {
	var wide uint64
	for i+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[i:])
		q := w ^ '"'*ones
		b := w ^ '\\'*ones
		if m := ((q-ones)&^q | (b-ones)&^b | (w-0x20*ones)&^w) & highs; m != 0 {
			k := bits.TrailingZeros64(m) / 8
			wide |= w & (1<<(8*k) - 1) // the bytes before it
			return i + k, wide&highs != 0
		}
		wide |= w
		i += 8
	}
	return i, wide&highs != 0
}

// escape checks the escape sequence at s.i and moves past it.
func (s *Scanner) escape() bool {
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
			return false // surrogates: pairs and lone halves are for the decoder
		}
		s.i += 6
		return true
	}
	return false
}

func (s *Scanner) literal(lit string) bool {
	if len(s.data)-s.i < len(lit) || string(s.data[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// number checks a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) number() bool {
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
func (s *Scanner) digits() bool {
	start := s.i
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// trustedValue finds the end of one value of validated input, without
// checking it: a string's closing quote, a container's matching bracket
// (counting both kinds alike), a scalar's next delimiter.
func (s *Scanner) trustedValue() bool {
	d := s.data
	if s.i >= len(d) {
		return false
	}
	switch d[s.i] {
	case '"':
		return s.trustedString()
	case '{', '[':
		depth := 0
		for s.i < len(d) {
			switch d[s.i] {
			case '"':
				if !s.trustedString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	case ',', '}', ']', ':':
		return false
	}
	for s.i < len(d) {
		switch d[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return true
		}
		s.i++
	}
	return true
}

// trustedString moves past the string that starts at s.i: to the first
// quote after it that is not escaped, that is, not after an odd run of
// backslashes.
func (s *Scanner) trustedString() bool {
	j := s.i + 1
	for {
		k := bytes.IndexByte(s.data[j:], '"')
		if k < 0 {
			return false
		}
		j += k
		run := 0
		for s.data[j-1-run] == '\\' {
			run++
		}
		if run%2 == 0 {
			s.i = j + 1
			return true
		}
		j++
	}
}
