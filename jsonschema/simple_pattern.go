package jsonschema

import (
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// A simplePattern matches the common shape of schema patterns, a sequence of
// quantified character sets with optional ^ and $ anchors, such as
// ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$, several times faster than regexp. It
// simulates a small NFA with a bit set of states, so it takes linear time.
// Patterns with groups, alternation or assertions use regexp instead.
type simplePattern struct {
	states      []spState   // state len(states) accepts
	start       uint64      // the states active before the first character
	ascii       [128]uint64 // for each ASCII character, the states that accept it
	anchorStart bool
	anchorEnd   bool
}

// spState is one state: the set of characters it consumes, and the states
// active after it consumed one.
type spState struct {
	cs     charSet
	follow uint64
}

// charSet is a set of code points: an ASCII bitmap plus ranges.
type charSet struct {
	ascii  [2]uint64
	ranges []runeRange // non-ASCII ranges (sorted)
	negate bool
}

type runeRange struct{ lo, hi rune }

func (cs *charSet) has(r rune) bool {
	var in bool
	if r < utf8.RuneSelf {
		in = cs.ascii[r>>6]&(1<<(r&63)) != 0
	} else {
		for _, rg := range cs.ranges {
			if r >= rg.lo && r <= rg.hi {
				in = true
				break
			}
		}
	}
	return in != cs.negate
}

func (cs *charSet) addRange(lo, hi rune) {
	for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
		cs.ascii[r>>6] |= 1 << (r & 63)
	}
	if hi >= utf8.RuneSelf {
		cs.ranges = append(cs.ranges, runeRange{max(lo, utf8.RuneSelf), hi})
	}
}

func (cs *charSet) addSet(o *charSet) bool {
	if o.negate {
		return false
	}
	cs.ascii[0] |= o.ascii[0]
	cs.ascii[1] |= o.ascii[1]
	cs.ranges = append(cs.ranges, o.ranges...)
	return true
}

const maxSimpleStates = 63

// compileSimplePattern returns a simplePattern for src, or nil if src is not
// of the simple shape.
func compileSimplePattern(src string) *simplePattern {
	var (
		items    [maxSimpleStates + 1]charSet
		star     [maxSimpleStates + 1]bool // the item may repeat
		optional [maxSimpleStates + 1]bool // the item may be skipped
		n        int
	)
	p := &simplePattern{}
	s := src
	if len(s) > 0 && s[0] == '^' {
		p.anchorStart = true
		s = s[1:]
	}
	if len(s) > 0 && s[len(s)-1] == '$' && (len(s) < 2 || s[len(s)-2] != '\\') {
		p.anchorEnd = true
		s = s[:len(s)-1]
	}
	for s != "" {
		set, rest, ok := parseSimpleAtom(s)
		if !ok {
			return nil
		}
		lo, hi, rest, ok := parseSimpleQuantifier(rest)
		if !ok {
			return nil
		}
		s = rest
		copies := hi
		if hi < 0 {
			copies = lo + 1
		}
		if n+copies > maxSimpleStates {
			return nil
		}
		for k := 0; k < copies; k++ {
			items[n], star[n], optional[n] = set, hi < 0 && k == lo, k >= lo
			n++
		}
	}
	// closure[k]: the states reachable from k by skipping optional items.
	var closure [maxSimpleStates + 2]uint64
	closure[n] = 1 << n
	for k := n - 1; k >= 0; k-- {
		closure[k] = 1 << k
		if optional[k] {
			closure[k] |= closure[k+1]
		}
	}
	p.start = closure[0]
	p.states = make([]spState, n)
	for k := 0; k < n; k++ {
		st := &p.states[k]
		st.cs = items[k]
		if star[k] {
			st.follow = closure[k]
		} else {
			st.follow = closure[k+1]
		}
		for w := 0; w < 2; w++ {
			set := st.cs.ascii[w]
			if st.cs.negate {
				set = ^set
			}
			for ; set != 0; set &= set - 1 {
				p.ascii[w*64+bits.TrailingZeros64(set)] |= 1 << k
			}
		}
	}
	return p
}

// match reports whether the pattern matches somewhere in s (anywhere, unless
// anchored).
func (p *simplePattern) match(s []byte) bool {
	accept := uint64(1) << len(p.states)
	active := p.start
	if !p.anchorEnd && active&accept != 0 {
		return true
	}
	for i := 0; i < len(s); {
		var m uint64
		if c := s[i]; c < utf8.RuneSelf {
			m = active & p.ascii[c]
			i++
		} else {
			r, size := utf8.DecodeRune(s[i:])
			i += size
			for a := active &^ accept; a != 0; a &= a - 1 {
				if k := bits.TrailingZeros64(a); p.states[k].cs.has(r) {
					m |= 1 << k
				}
			}
		}
		var next uint64
		for ; m != 0; m &= m - 1 {
			next |= p.states[bits.TrailingZeros64(m)].follow
		}
		if !p.anchorStart {
			next |= p.start
		}
		active = next
		if active&accept != 0 && !p.anchorEnd {
			return true
		}
		if active == 0 {
			return false
		}
	}
	return active&accept != 0
}

// parseSimpleAtom parses one atom: a literal, '.', an escape or a class.
func parseSimpleAtom(s string) (charSet, string, bool) {
	var cs charSet
	switch c := s[0]; c {
	case '.':
		cs.negate = true
		cs.addRange('\n', '\n')
		cs.addRange('\r', '\r')
		cs.addRange(0x2028, 0x2029)
		return cs, s[1:], true
	case '\\':
		set, n, ok := parseSimpleEscape(s)
		return set, s[n:], ok
	case '[':
		return parseSimpleClass(s)
	case '(', ')', '|', '*', '+', '?', '{', '}', '^', '$', ']':
		return cs, s, false
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return cs, s, false
	}
	cs.addRange(r, r)
	return cs, s[size:], true
}

// parseSimpleEscape parses an escape outside or inside a class and returns
// its set and length.
func parseSimpleEscape(s string) (charSet, int, bool) {
	var cs charSet
	if len(s) < 2 {
		return cs, 0, false
	}
	switch c := s[1]; c {
	case 'd', 'D':
		cs.addRange('0', '9')
		cs.negate = c == 'D'
	case 'w', 'W':
		cs.addRange('a', 'z')
		cs.addRange('A', 'Z')
		cs.addRange('0', '9')
		cs.addRange('_', '_')
		cs.negate = c == 'W'
	case 's', 'S':
		for _, r := range "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" {
			cs.addRange(r, r)
		}
		cs.addRange(0x2000, 0x200a)
		cs.negate = c == 'S'
	case 't':
		cs.addRange('\t', '\t')
	case 'n':
		cs.addRange('\n', '\n')
	case 'r':
		cs.addRange('\r', '\r')
	case 'f':
		cs.addRange('\f', '\f')
	case 'v':
		cs.addRange('\v', '\v')
	default:
		if c < utf8.RuneSelf && !isASCIILetter(c) && !isDigit(c) {
			cs.addRange(rune(c), rune(c)) // escaped punctuation
			return cs, 2, true
		}
		return cs, 0, false // \b, \u, \x, \c, \p, backreferences: use regexp
	}
	return cs, 2, true
}

// parseSimpleClass parses "[...]".
func parseSimpleClass(s string) (charSet, string, bool) {
	var cs charSet
	i := 1
	if i < len(s) && s[i] == '^' {
		cs.negate = true
		i++
	}
	first := true
	for {
		if i >= len(s) {
			return cs, s, false
		}
		if s[i] == ']' && !first {
			return cs, s[i+1:], true
		}
		if s[i] == ']' || s[i] == '[' {
			return cs, s, false // "[]" and "[^]" are rare; leave them to regexp
		}
		first = false
		lo, n, single, ok := classAtomSimple(s[i:])
		if !ok {
			return cs, s, false
		}
		i += n
		if !single.isEmpty() {
			if !cs.addSet(&single) {
				return cs, s, false
			}
			continue
		}
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, n, hiSet, ok := classAtomSimple(s[i+1:])
			if !ok || !hiSet.isEmpty() || hi < lo {
				return cs, s, false
			}
			i += 1 + n
			cs.addRange(lo, hi)
			continue
		}
		cs.addRange(lo, lo)
	}
}

func (cs *charSet) isEmpty() bool {
	return cs.ascii[0] == 0 && cs.ascii[1] == 0 && cs.ranges == nil && !cs.negate
}

// classAtomSimple parses a class atom: a code point, or a class escape
// (returned as a set).
func classAtomSimple(s string) (rune, int, charSet, bool) {
	if s[0] == '\\' {
		set, n, ok := parseSimpleEscape(s)
		if !ok {
			return 0, 0, set, false
		}
		if s[1] == 'd' || s[1] == 'D' || s[1] == 'w' || s[1] == 'W' || s[1] == 's' || s[1] == 'S' {
			return 0, n, set, true
		}
		// A single character escape: extract its code point.
		for r := rune(0); r < utf8.RuneSelf; r++ {
			if set.ascii[r>>6]&(1<<(r&63)) != 0 {
				return r, n, charSet{}, true
			}
		}
		return 0, 0, set, false
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return 0, 0, charSet{}, false
	}
	return r, size, charSet{}, true
}

// parseSimpleQuantifier parses an optional quantifier (and a lazy '?',
// which does not change whether a string matches). hi < 0 means unbounded.
func parseSimpleQuantifier(s string) (lo, hi int, rest string, ok bool) {
	if s == "" {
		return 1, 1, s, true
	}
	switch s[0] {
	case '*':
		lo, hi, s = 0, -1, s[1:]
	case '+':
		lo, hi, s = 1, -1, s[1:]
	case '?':
		lo, hi, s = 0, 1, s[1:]
	case '{':
		end := indexByte(s, '}')
		if end < 0 {
			return 0, 0, s, false
		}
		body := s[1:end]
		a, b, comma := cutByte(body, ',')
		if !allDigits(a) || (comma && b != "" && !allDigits(b)) || len(a) > 4 || len(b) > 4 {
			return 0, 0, s, false
		}
		var err error
		if lo, err = strconv.Atoi(a); err != nil || lo > maxSimpleStates {
			return 0, 0, s, false
		}
		switch {
		case !comma:
			hi = lo
		case b == "":
			hi = -1
		default:
			if hi, err = strconv.Atoi(b); err != nil || hi < lo || hi > maxSimpleStates {
				return 0, 0, s, false
			}
		}
		s = s[end+1:]
	default:
		return 1, 1, s, true
	}
	if s != "" && s[0] == '?' {
		s = s[1:]
	}
	return lo, hi, s, true
}
