package jsonschema

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrInvalidJSON is returned (wrapped) when bytes given to the package are not
// a single well-formed JSON value: a syntax error, invalid UTF-8, a duplicate
// object key or nesting deeper than the limit.
var ErrInvalidJSON = errors.New("invalid JSON")

// maxNesting bounds the nesting depth of parsed JSON values and of Go values
// given to Validate, matching encoding/json's limit.
const maxNesting = 10000

// parser appends JSON values to a tape. It is strict: RFC 8259 syntax, valid
// UTF-8, no duplicate keys in an object.
type parser struct {
	t    *tape
	data []byte
	pos  int
	copy bool // copy string and number text into t.scratch (data is not t.src)
	// unsorted: take map members in map order instead of sorting them
	// (for a first, quiet validation whose error order does not matter).
	unsorted bool
	depth    int
	keys     []uint32 // scratch for duplicate detection
	kvs      []kv     // scratch for sorting map members
}

// parseInto parses data, which must hold exactly one JSON value, onto the
// tape. If copyText is false, string and number nodes refer to data, which
// must then be the tape's src.
func (p *parser) parseInto(data []byte, copyText bool) error {
	saved, savedPos, savedCopy := p.data, p.pos, p.copy
	p.data, p.pos, p.copy = data, 0, copyText
	defer func() { p.data, p.pos, p.copy = saved, savedPos, savedCopy }()
	if len(data) >= 1<<32-1 {
		return fmt.Errorf("%w: input larger than 4 GiB", ErrInvalidJSON)
	}
	p.skipSpace()
	if err := p.value(); err != nil {
		return err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return p.errorf("unexpected data after the top-level value")
	}
	return nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrInvalidJSON, p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", kindTrue)
	case c == 'f':
		return p.literal("false", kindFalse)
	case c == 'n':
		return p.literal("null", kindNull)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return p.errorf("invalid character %q looking for a value", c)
	}
}

func (p *parser) literal(word string, k kind) error {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.errorf("invalid literal")
	}
	p.pos += len(word)
	n := uint32(len(p.t.nodes))
	p.t.nodes = append(p.t.nodes, tnode{kind: k, next: n + 1})
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return p.errorf("nesting deeper than %d", maxNesting)
	}
	return nil
}

func (p *parser) array() error {
	if err := p.enter(); err != nil {
		return err
	}
	idx := len(p.t.nodes)
	p.t.nodes = append(p.t.nodes, tnode{kind: kindArray})
	p.pos++
	p.skipSpace()
	var count uint32
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
	} else {
		for {
			if err := p.value(); err != nil {
				return err
			}
			count++
			p.skipSpace()
			if p.pos >= len(p.data) {
				return p.errorf("unexpected end of input in array")
			}
			c := p.data[p.pos]
			p.pos++
			if c == ']' {
				break
			}
			if c != ',' {
				return p.errorf("expected ',' or ']' in array")
			}
			p.skipSpace()
		}
	}
	p.depth--
	p.t.nodes[idx].n = count
	p.t.nodes[idx].next = uint32(len(p.t.nodes))
	return nil
}

func (p *parser) object() error {
	if err := p.enter(); err != nil {
		return err
	}
	idx := len(p.t.nodes)
	p.t.nodes = append(p.t.nodes, tnode{kind: kindObject})
	p.pos++
	p.skipSpace()
	var count uint32
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
	} else {
		for {
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return p.errorf("expected a string for an object key")
			}
			if err := p.str(); err != nil {
				return err
			}
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return p.errorf("expected ':' after object key")
			}
			p.pos++
			p.skipSpace()
			if err := p.value(); err != nil {
				return err
			}
			count++
			p.skipSpace()
			if p.pos >= len(p.data) {
				return p.errorf("unexpected end of input in object")
			}
			c := p.data[p.pos]
			p.pos++
			if c == '}' {
				break
			}
			if c != ',' {
				return p.errorf("expected ',' or '}' in object")
			}
			p.skipSpace()
		}
	}
	p.depth--
	p.t.nodes[idx].n = count
	p.t.nodes[idx].off = uint32(p.pos - 1) // the closing brace, for ApplyDefaultsJSON
	p.t.nodes[idx].next = uint32(len(p.t.nodes))
	if count > 1 {
		if k, dup := p.t.duplicateKey(uint32(idx), &p.keys); dup {
			return p.errorf("duplicate object key %q", p.t.text(k))
		}
	}
	return nil
}

// strPlain marks the bytes that need no attention inside a string: ASCII
// other than control characters, '"' and '\\'.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str parses a string at p.pos and appends a string node.
func (p *parser) str() error {
	p.pos++ // opening quote
	start := p.pos
	data := p.data
	i := start
	for {
		for i < len(data) && strPlain[data[i]] {
			i++
		}
		if i >= len(data) {
			p.pos = i
			return p.errorf("unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			p.appendText(kindString, start, i)
			return nil
		case c == '\\':
			p.pos = i
			return p.strEscaped(start)
		case c < 0x20:
			p.pos = i
			return p.errorf("control character in string")
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				p.pos = i
				return p.errorf("invalid UTF-8 in string")
			}
			i += size
		}
	}
}

// appendText appends a string or number node whose text is p.data[start:end].
func (p *parser) appendText(k kind, start, end int) {
	t := p.t
	n := uint32(len(t.nodes))
	nd := tnode{kind: k, n: uint32(end - start), off: uint32(start), next: n + 1}
	if p.copy {
		nd.off = uint32(len(t.scratch))
		nd.flags = flagScratch
		t.scratch = append(t.scratch, p.data[start:end]...)
	}
	t.nodes = append(t.nodes, nd)
}

// strEscaped decodes a string containing escapes into scratch. p.pos is at
// the first backslash; start is the first byte of the string's content.
func (p *parser) strEscaped(start int) error {
	t := p.t
	off := len(t.scratch)
	t.scratch = append(t.scratch, p.data[start:p.pos]...)
	data := p.data
	i := p.pos
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			n := uint32(len(t.nodes))
			t.nodes = append(t.nodes, tnode{kind: kindString, flags: flagScratch,
				off: uint32(off), n: uint32(len(t.scratch) - off), next: n + 1})
			return nil
		case c == '\\':
			p.pos = i
			adv, err := p.escape(data[i:])
			if err != nil {
				return err
			}
			i += adv
		case c < 0x20:
			p.pos = i
			return p.errorf("control character in string")
		case c < utf8.RuneSelf:
			t.scratch = append(t.scratch, c)
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				p.pos = i
				return p.errorf("invalid UTF-8 in string")
			}
			t.scratch = append(t.scratch, data[i:i+size]...)
			i += size
		}
	}
	p.pos = i
	return p.errorf("unterminated string")
}

// escape decodes one escape sequence at the start of b into scratch and
// returns its length.
func (p *parser) escape(b []byte) (int, error) {
	if len(b) < 2 {
		return 0, p.errorf("unterminated escape")
	}
	var c byte
	switch b[1] {
	case '"', '\\', '/':
		c = b[1]
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return 0, p.errorf("invalid \\u escape")
		}
		n := 6
		if r >= 0xD800 && r < 0xDC00 {
			lo, ok := rune(0), false
			if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
				lo, ok = hex4(b[8:])
			}
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return 0, p.errorf("invalid surrogate pair in \\u escape")
			}
			r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			n = 12
		} else if r >= 0xDC00 && r <= 0xDFFF {
			return 0, p.errorf("invalid surrogate in \\u escape")
		}
		p.t.scratch = utf8.AppendRune(p.t.scratch, r)
		return n, nil
	default:
		return 0, p.errorf("invalid escape character %q", b[1])
	}
	p.t.scratch = append(p.t.scratch, c)
	return 2, nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number parses a number at p.pos and appends a number node.
func (p *parser) number() error {
	start := p.pos
	end, ok := scanNumber(p.data, start)
	if !ok {
		p.pos = end
		return p.errorf("invalid number")
	}
	p.pos = end
	lit := p.data[start:end]
	p.appendText(kindNumber, start, end)
	nd := &p.t.nodes[len(p.t.nodes)-1]
	nd.f, nd.i, nd.flags = numberValue(lit, nd.flags)
	return nil
}

// duplicateKey reports whether object i has two members with the same key,
// and returns the index of one such key.
func (t *tape) duplicateKey(i uint32, scratch *[]uint32) (uint32, bool) {
	nd := &t.nodes[i]
	if nd.n <= 16 {
		// Compare signatures (length, first and last byte) first.
		var keys [16]uint32
		var sigs [16]uint32
		k := i + 1
		for m := uint32(0); m < nd.n; m++ {
			keys[m] = k
			sigs[m] = propSignature(t.text(k))
			for b := uint32(0); b < m; b++ {
				if sigs[b] == sigs[m] && string(t.text(keys[b])) == string(t.text(k)) {
					return k, true
				}
			}
			k = t.nodes[k+1].next
		}
		return 0, false
	}
	keys := (*scratch)[:0]
	k := i + 1
	for m := uint32(0); m < nd.n; m++ {
		keys = append(keys, k)
		k = t.nodes[k+1].next
	}
	*scratch = keys
	sortKeys(t, keys)
	for a := 1; a < len(keys); a++ {
		if string(t.text(keys[a-1])) == string(t.text(keys[a])) {
			return keys[a], true
		}
	}
	return 0, false
}
