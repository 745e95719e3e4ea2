// Package uritemplate implements URI templates as defined by RFC 6570, all
// four levels: parsing, expansion, and the reverse, matching a URI against
// a template to recover the values of its variables.
//
// Expansion follows the RFC exactly. Matching is the RFC's expansion run
// backwards, which is ambiguous in general (RFC 6570 §1.4); Match documents
// the choices it makes.
package uritemplate

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every error Parse returns.
var ErrSyntax = errors.New("uritemplate: invalid template")

// A Template is a parsed URI template. It is immutable and safe for
// concurrent use.
type Template struct {
	raw   string
	parts []part
	vars  []string       // distinct variable names, in order of appearance
	re    *regexp.Regexp // matches the URIs the template expands to
}

// part is a literal or an expression of a template.
type part struct {
	literal string      // the literal as it appears in an expansion
	expr    *expression // nil for a literal
}

// expression is one {...} of a template.
type expression struct {
	op    *operator
	specs []varspec
}

// varspec is one variable of an expression with its modifier.
type varspec struct {
	name    string
	prefix  int // the :n prefix length, or 0
	explode bool
}

// operator holds the expansion rules of one expression type (RFC 6570
// Appendix A).
type operator struct {
	first         string // emitted before the first defined variable
	sep           byte   // separates variables and exploded items
	named         bool   // name=value pairs
	ifEmpty       string // emitted after the name of an empty value
	allowReserved bool   // reserved characters pass unencoded
}

var (
	opSimple   = &operator{sep: ','}
	opReserved = &operator{sep: ',', allowReserved: true}
	opFragment = &operator{first: "#", sep: ',', allowReserved: true}
	opLabel    = &operator{first: ".", sep: '.'}
	opPath     = &operator{first: "/", sep: '/'}
	opParam    = &operator{first: ";", sep: ';', named: true}
	opQuery    = &operator{first: "?", sep: '&', named: true, ifEmpty: "="}
	opQueryCnt = &operator{first: "&", sep: '&', named: true, ifEmpty: "="}
)

// operators maps an expression's first character to its operator.
var operators = map[byte]*operator{
	'+': opReserved, '#': opFragment, '.': opLabel, '/': opPath,
	';': opParam, '?': opQuery, '&': opQueryCnt,
}

// maxPrefix is the largest :n prefix length RFC 6570 allows.
const maxPrefix = 9999

// Parse parses a URI template. It reports an error wrapping ErrSyntax for
// unbalanced braces, invalid variable names, reserved operators ("=", ",",
// "!", "@", "|"), bad prefix lengths and characters that RFC 6570 does not
// allow in literals.
func Parse(template string) (*Template, error) {
	t := &Template{raw: template}
	seen := map[string]bool{}
	for i := 0; i < len(template); {
		open := strings.IndexAny(template[i:], "{}")
		if open < 0 {
			open = len(template) - i
		}
		if open > 0 {
			lit, err := parseLiteral(template[i : i+open])
			if err != nil {
				return nil, fmt.Errorf("%w %q: %v", ErrSyntax, template, err)
			}
			t.parts = append(t.parts, part{literal: lit})
			i += open
			continue
		}
		if template[i] == '}' {
			return nil, fmt.Errorf("%w %q: unmatched '}' at offset %d", ErrSyntax, template, i)
		}
		end := strings.IndexAny(template[i+1:], "{}")
		if end < 0 || template[i+1+end] != '}' {
			return nil, fmt.Errorf("%w %q: unclosed expression at offset %d", ErrSyntax, template, i)
		}
		expr, err := parseExpression(template[i+1 : i+1+end])
		if err != nil {
			return nil, fmt.Errorf("%w %q: expression at offset %d: %v", ErrSyntax, template, i, err)
		}
		for _, s := range expr.specs {
			if !seen[s.name] {
				seen[s.name] = true
				t.vars = append(t.vars, s.name)
			}
		}
		t.parts = append(t.parts, part{expr: expr})
		i += end + 2
	}
	re, err := regexp.Compile(t.pattern())
	if err != nil {
		// The pattern is built from quoted literals and fixed fragments;
		// only a template too large for the regexp package gets here.
		return nil, fmt.Errorf("%w %q: %v", ErrSyntax, template, err)
	}
	t.re = re
	return t, nil
}

// MustParse is like Parse but panics on error. It is for templates that
// are constants of the program.
func MustParse(template string) *Template {
	t, err := Parse(template)
	if err != nil {
		panic(err)
	}
	return t
}

// String returns the template as it was parsed.
func (t *Template) String() string { return t.raw }

// Vars returns the names of the template's variables, each once, in order
// of first appearance.
func (t *Template) Vars() []string { return append([]string(nil), t.vars...) }

// parseLiteral checks a literal and returns it as it appears in an
// expansion: characters allowed in a URI are copied, others (non-ASCII
// characters) are percent-encoded, as RFC 6570 §3.1 says.
func parseLiteral(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", errors.New("literal is not valid UTF-8")
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", fmt.Errorf("'%%' not followed by two hex digits at offset %d", i)
			}
			b = append(b, s[i:i+3]...)
			i += 2
		case isUnreserved(c) || isReserved(c) && c != '\'':
			b = append(b, c)
		case c < 0x80:
			return "", fmt.Errorf("character %q not allowed in a literal", c)
		default:
			b = appendPctByte(b, c)
		}
	}
	return string(b), nil
}

// parseExpression parses the text between the braces of an expression.
func parseExpression(s string) (*expression, error) {
	if s == "" {
		return nil, errors.New("empty expression")
	}
	expr := &expression{op: opSimple}
	if op, ok := operators[s[0]]; ok {
		expr.op = op
		s = s[1:]
	} else if strings.IndexByte("=,!@|", s[0]) >= 0 {
		return nil, fmt.Errorf("operator %q is reserved", s[0])
	}
	for spec := range strings.SplitSeq(s, ",") {
		v, err := parseVarspec(spec)
		if err != nil {
			return nil, err
		}
		expr.specs = append(expr.specs, v)
	}
	return expr, nil
}

// parseVarspec parses "name", "name*" or "name:n".
func parseVarspec(s string) (varspec, error) {
	var v varspec
	name := s
	if strings.HasSuffix(s, "*") {
		v.explode = true
		name = s[:len(s)-1]
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		name = s[:i]
		n, err := parsePrefix(s[i+1:])
		if err != nil {
			return v, fmt.Errorf("variable %q: %v", name, err)
		}
		v.prefix = n
	}
	if err := checkVarname(name); err != nil {
		return v, err
	}
	v.name = name
	return v, nil
}

// parsePrefix parses the max-length of a prefix modifier: 1 to 9999,
// without leading zeros.
func parsePrefix(s string) (int, error) {
	if len(s) == 0 || len(s) > 4 || s[0] == '0' {
		return 0, fmt.Errorf("invalid prefix length %q (want 1 to %d)", s, maxPrefix)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("invalid prefix length %q (want 1 to %d)", s, maxPrefix)
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, nil
}

// checkVarname checks varname = varchar *( ["."] varchar ), where varchar
// is ALPHA / DIGIT / "_" / pct-encoded.
func checkVarname(name string) error {
	if name == "" {
		return errors.New("empty variable name")
	}
	dot := true // a name may not start with '.'
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '_':
			dot = false
		case c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]):
			dot = false
			i += 2
		case c == '.' && !dot:
			dot = true
		default:
			return fmt.Errorf("invalid variable name %q", name)
		}
	}
	if dot {
		return fmt.Errorf("invalid variable name %q", name)
	}
	return nil
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

// isReserved reports whether c is an RFC 3986 reserved character
// (gen-delims and sub-delims).
func isReserved(c byte) bool {
	return strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0
}
