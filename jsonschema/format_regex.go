package jsonschema

import (
	"strings"
	"unicode/utf8"
)

// isRegex checks that s is a syntactically valid ECMA-262 regular
// expression, with the Unicode flag's stricter rules. It accepts ECMA
// features that Go's regexp lacks (lookaround, backreferences), since the
// format is about the syntax, and rejects other dialects' syntax such as
// (?P<name>...), (?i) and (?#...).
func isRegex(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	c := &reChecker{src: s, names: map[string]bool{}}
	c.countGroups()
	if !c.disjunction() || c.pos != len(s) {
		return false
	}
	for _, name := range c.refNames {
		if !c.names[name] {
			return false
		}
	}
	return c.maxBackref <= c.groups
}

type reChecker struct {
	src        string
	pos        int
	groups     int
	names      map[string]bool
	refNames   []string
	maxBackref int
	depth      int
}

// countGroups counts capturing groups, for checking backreferences.
func (c *reChecker) countGroups() {
	inClass := false
	for i := 0; i < len(c.src); i++ {
		switch ch := c.src[i]; {
		case ch == '\\':
			i++
		case ch == '[':
			inClass = true
		case ch == ']':
			inClass = false
		case ch == '(' && !inClass:
			if !strings.HasPrefix(c.src[i:], "(?") || (strings.HasPrefix(c.src[i:], "(?<") &&
				!strings.HasPrefix(c.src[i:], "(?<=") && !strings.HasPrefix(c.src[i:], "(?<!")) {
				c.groups++
			}
		}
	}
}

func (c *reChecker) peek() byte {
	if c.pos < len(c.src) {
		return c.src[c.pos]
	}
	return 0
}

func (c *reChecker) eat(s string) bool {
	if strings.HasPrefix(c.src[c.pos:], s) {
		c.pos += len(s)
		return true
	}
	return false
}

func (c *reChecker) disjunction() bool {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > 1000 {
		return false
	}
	for {
		if !c.alternative() {
			return false
		}
		if !c.eat("|") {
			return true
		}
	}
}

func (c *reChecker) alternative() bool {
	for c.pos < len(c.src) && c.peek() != '|' && c.peek() != ')' {
		if !c.term() {
			return false
		}
	}
	return true
}

func (c *reChecker) term() bool {
	switch {
	case c.eat("^"), c.eat("$"), c.eat(`\b`), c.eat(`\B`):
		return true
	case c.eat("(?="), c.eat("(?!"), c.eat("(?<="), c.eat("(?<!"):
		return c.disjunction() && c.eat(")")
	}
	if !c.atom() {
		return false
	}
	return c.quantifier()
}

func (c *reChecker) quantifier() bool {
	switch c.peek() {
	case '*', '+', '?':
		c.pos++
	case '{':
		c.pos++
		n, ok := c.decimal()
		if !ok {
			return false
		}
		if c.eat(",") && c.peek() != '}' {
			m, ok := c.decimal()
			if !ok || m < n {
				return false
			}
		}
		if !c.eat("}") {
			return false
		}
	default:
		return true
	}
	c.eat("?")
	return true
}

// decimal reads a decimal number.
func (c *reChecker) decimal() (int, bool) {
	start, v := c.pos, 0
	for c.pos < len(c.src) && isDigit(c.src[c.pos]) {
		if v < 1e9 {
			v = v*10 + int(c.src[c.pos]-'0')
		}
		c.pos++
	}
	return v, c.pos > start
}

func (c *reChecker) atom() bool {
	ch := c.peek()
	switch ch {
	case '.':
		c.pos++
		return true
	case '\\':
		c.pos++
		return c.atomEscape()
	case '[':
		c.pos++
		return c.class()
	case '(':
		c.pos++
		if c.eat("?:") {
			return c.disjunction() && c.eat(")")
		}
		if c.eat("?<") {
			name, ok := c.groupName()
			if !ok || c.names[name] {
				return false
			}
			c.names[name] = true
		} else if c.peek() == '?' {
			return false // (?P<..>, (?i), (?#...) and the like
		}
		return c.disjunction() && c.eat(")")
	case '*', '+', '?', '{', '}', ']', ')', '|':
		return false
	}
	_, size := utf8.DecodeRuneInString(c.src[c.pos:])
	c.pos += size
	return true
}

// groupName reads "name>".
func (c *reChecker) groupName() (string, bool) {
	end := strings.IndexByte(c.src[c.pos:], '>')
	if end <= 0 {
		return "", false
	}
	name := c.src[c.pos : c.pos+end]
	for i, r := range name {
		if !(r == '_' || r == '$' || isLetterRune(r) || (i > 0 && (r >= '0' && r <= '9'))) {
			return "", false
		}
	}
	c.pos += end + 1
	return name, true
}

func isLetterRune(r rune) bool {
	return (r|0x20) >= 'a' && (r|0x20) <= 'z' || r >= 0x80
}

func (c *reChecker) atomEscape() bool {
	ch := c.peek()
	switch {
	case ch >= '1' && ch <= '9':
		n, _ := c.decimal()
		c.maxBackref = max(c.maxBackref, n)
		return true
	case ch == 'k':
		c.pos++
		if !c.eat("<") {
			return false
		}
		name, ok := c.groupName()
		if !ok {
			return false
		}
		c.refNames = append(c.refNames, name)
		return true
	}
	return c.classOrCharEscape(false)
}

// classOrCharEscape checks a character class escape or character escape
// after a backslash.
func (c *reChecker) classOrCharEscape(inClass bool) bool {
	if c.pos >= len(c.src) {
		return false
	}
	ch := c.src[c.pos]
	c.pos++
	switch ch {
	case 'd', 'D', 's', 'S', 'w', 'W', 'f', 'n', 'r', 't', 'v':
		return true
	case 'b':
		return inClass
	case '-':
		return inClass
	case 'p', 'P':
		if !c.eat("{") {
			return false
		}
		end := strings.IndexByte(c.src[c.pos:], '}')
		if end <= 0 {
			return false
		}
		c.pos += end + 1
		return true
	case 'c':
		if c.pos < len(c.src) && isASCIILetter(c.src[c.pos]) {
			c.pos++
			return true
		}
		return false
	case '0':
		return !isDigit(c.peek())
	case 'x':
		if c.pos+2 <= len(c.src) && isHex(c.src[c.pos]) && isHex(c.src[c.pos+1]) {
			c.pos += 2
			return true
		}
		return false
	case 'u':
		if c.eat("{") {
			end := strings.IndexByte(c.src[c.pos:], '}')
			if end <= 0 || end > 6 {
				return false
			}
			for i := 0; i < end; i++ {
				if !isHex(c.src[c.pos+i]) {
					return false
				}
			}
			c.pos += end + 1
			return true
		}
		if c.pos+4 <= len(c.src) {
			for i := 0; i < 4; i++ {
				if !isHex(c.src[c.pos+i]) {
					return false
				}
			}
			c.pos += 4
			return true
		}
		return false
	}
	// Identity escapes: only syntax characters and '/' in Unicode mode.
	return strings.IndexByte(`^$\.*+?()[]{}|/`, ch) >= 0
}

// class checks a character class after its '['.
func (c *reChecker) class() bool {
	c.eat("^")
	for {
		if c.pos >= len(c.src) {
			return false
		}
		if c.eat("]") {
			return true
		}
		lo, ok := c.classAtom()
		if !ok {
			return false
		}
		if c.peek() == '-' && c.pos+1 < len(c.src) && c.src[c.pos+1] != ']' {
			c.pos++
			hi, ok := c.classAtom()
			if !ok || lo < 0 || hi < 0 || lo > hi {
				return false // class escapes cannot bound a range
			}
		}
	}
}

// classAtom reads one class atom and returns its code point, or -1 for a
// class escape such as \d or an escape whose value is not tracked.
func (c *reChecker) classAtom() (rune, bool) {
	if c.peek() != '\\' {
		r, size := utf8.DecodeRuneInString(c.src[c.pos:])
		c.pos += size
		return r, true
	}
	c.pos++
	start := c.pos
	if !c.classOrCharEscape(true) {
		return 0, false
	}
	esc := c.src[start:c.pos]
	switch esc[0] {
	case 'd', 'D', 's', 'S', 'w', 'W', 'p', 'P':
		return -1, true
	case 'b':
		return '\b', true
	case '-':
		return '-', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'c':
		return rune(esc[1] % 32), true
	case '0':
		return 0, true
	case 'x', 'u':
		hex := strings.Trim(esc[1:], "{}")
		var r rune
		for i := 0; i < len(hex); i++ {
			d, _ := pcDigit(hex[i])
			if hex[i] >= '0' && hex[i] <= '9' {
				d = int(hex[i] - '0')
			} else {
				d += 10
			}
			r = r<<4 | rune(d)
		}
		return r, true
	}
	r, _ := utf8.DecodeRuneInString(esc)
	return r, true
}
