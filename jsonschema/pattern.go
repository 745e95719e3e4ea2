package jsonschema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON Schema patterns are ECMA-262 regular expressions (with Unicode
// semantics). compilePattern translates them to Go's RE2 syntax where the two
// differ, and reports an error for ECMA features RE2 lacks (lookaround,
// backreferences).
//
// Translated: \s and \S (ECMA's white space set is larger), \cX control
// escapes, \uXXXX and \u{X...} escapes, \p{Long_Name} property names, and
// "." (which in ECMA-262 excludes all four line terminators).

// ecmaSpace is the set \s matches in ECMA-262, as an RE2 class body.
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// A pattern is a compiled ECMA-262 regular expression: a simplePattern when
// it has that shape, else a Go regexp.
type pattern struct {
	src    string
	simple *simplePattern
	re     *regexp.Regexp
}

// match reports whether the pattern matches somewhere in s.
func (p *pattern) match(s []byte) bool {
	if p.simple != nil {
		return p.simple.match(s)
	}
	return p.re.Match(s)
}

// compilePattern compiles an ECMA-262 regular expression.
func compilePattern(src string) (*pattern, error) {
	if sp := compileSimplePattern(src); sp != nil {
		return &pattern{src: src, simple: sp}, nil
	}
	re, err := compileRegexp(src)
	if err != nil {
		return nil, err
	}
	return &pattern{src: src, re: re}, nil
}

// compileRegexp translates an ECMA-262 regular expression and compiles it
// with Go's regexp package.
func compileRegexp(src string) (*regexp.Regexp, error) {
	tr, err := translatePattern(src)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %w", src, err)
	}
	re, err := regexp.Compile(tr)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q is not supported: %w", src, err)
	}
	return re, nil
}

// translatePattern rewrites an ECMA-262 pattern in RE2 syntax.
func translatePattern(src string) (string, error) {
	if !strings.ContainsAny(src, `\.([{`) {
		return src, nil
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			n, err := translateEscape(&b, src[i:], inClass)
			if err != nil {
				return "", err
			}
			i += n
			continue
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte('[')
			switch {
			case strings.HasPrefix(src[i:], "[^]"):
				b.WriteString(`\x00-\x{10FFFF}]`) // [^] matches anything
				inClass = false
				i += 3
				continue
			case strings.HasPrefix(src[i:], "[]"):
				b.WriteString(`^\x00-\x{10FFFF}]`) // [] matches nothing
				inClass = false
				i += 2
				continue
			}
		case c == '[' && inClass:
			b.WriteString(`\[`)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(']')
		case c == '.' && !inClass:
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '{' && !inClass:
			// A quantifier: ECMA-262 allows leading zeros, RE2 does not.
			if n := normalizeQuantifier(&b, src[i:]); n > 0 {
				i += n
				continue
			}
			b.WriteByte(c)
		case c == '(' && !inClass && strings.HasPrefix(src[i:], "(?"):
			rest := src[i+2:]
			switch {
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"),
				strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				return "", fmt.Errorf("lookaround assertions are not supported")
			}
			b.WriteByte('(')
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String(), nil
}

// translateEscape translates the escape sequence at the start of s and
// returns its length.
func translateEscape(b *strings.Builder, s string, inClass bool) (int, error) {
	if len(s) < 2 {
		return 0, fmt.Errorf("trailing backslash")
	}
	switch c := s[1]; c {
	case 's':
		if inClass {
			b.WriteString(ecmaSpace)
		} else {
			b.WriteString("[" + ecmaSpace + "]")
		}
		return 2, nil
	case 'S':
		if inClass {
			b.WriteString(`\S`) // approximation: RE2's \S inside a class
		} else {
			b.WriteString("[^" + ecmaSpace + "]")
		}
		return 2, nil
	case 'c':
		if len(s) >= 3 && isASCIILetter(s[2]) {
			fmt.Fprintf(b, `\x{%x}`, s[2]%32)
			return 3, nil
		}
		b.WriteString(`\\c`)
		return 2, nil
	case 'u':
		return translateUnicodeEscape(b, s)
	case 'p', 'P':
		return translateProperty(b, s)
	case '0':
		if len(s) >= 3 && s[2] >= '0' && s[2] <= '9' {
			return 0, fmt.Errorf("octal escapes are not supported")
		}
		b.WriteString(`\x{0}`)
		return 2, nil
	case 'k':
		return 0, fmt.Errorf("named backreferences are not supported")
	case 'd', 'D', 'w', 'W', 'b', 'B', 't', 'n', 'r', 'f', 'v', 'x':
		b.WriteString(s[:2])
		return 2, nil
	case '/':
		b.WriteByte('/')
		return 2, nil
	default:
		if c >= '1' && c <= '9' {
			return 0, fmt.Errorf("backreferences are not supported")
		}
		r, size := utf8.DecodeRuneInString(s[1:])
		if r < utf8.RuneSelf && !isASCIILetter(byte(r)) && !(r >= '0' && r <= '9') {
			b.WriteString(s[:1+size]) // escaped punctuation
		} else {
			b.WriteString(regexp.QuoteMeta(s[1 : 1+size])) // identity escape
		}
		return 1 + size, nil
	}
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// translateUnicodeEscape handles \uXXXX (and surrogate pairs) and \u{X...}.
func translateUnicodeEscape(b *strings.Builder, s string) (int, error) {
	if len(s) >= 3 && s[2] == '{' {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return 0, fmt.Errorf("invalid \\u{...} escape")
		}
		v, err := strconv.ParseUint(s[3:end], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return 0, fmt.Errorf("invalid \\u{...} escape")
		}
		fmt.Fprintf(b, `\x{%x}`, v)
		return end + 1, nil
	}
	r, ok := hex4([]byte(s[2:min(len(s), 6)]))
	if !ok {
		return 0, fmt.Errorf("invalid \\u escape")
	}
	n := 6
	if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo, ok := hex4([]byte(s[8:12])); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			n = 12
		}
	}
	fmt.Fprintf(b, `\x{%x}`, r)
	return n, nil
}

// translateProperty handles \p{...} and \P{...}.
func translateProperty(b *strings.Builder, s string) (int, error) {
	if len(s) < 3 || s[2] != '{' {
		return 0, fmt.Errorf("invalid \\%c escape", s[1])
	}
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return 0, fmt.Errorf("invalid \\%c{...} escape", s[1])
	}
	name := s[3:end]
	if k, v, ok := strings.Cut(name, "="); ok {
		switch k {
		case "General_Category", "gc", "Script", "sc", "Script_Extensions", "scx":
			name = v
		default:
			return 0, fmt.Errorf("unicode property %q is not supported", k)
		}
	}
	if short, ok := categoryNames[name]; ok {
		name = short
	}
	b.WriteString(`\`)
	b.WriteByte(s[1])
	b.WriteString("{" + name + "}")
	return end + 1, nil
}

// categoryNames maps ECMA-262 long General_Category names (and "digit",
// which some schemas use) to RE2's short names.
var categoryNames = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
	"Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
	"Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po",
	"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So",
	"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp",
	"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
	"Private_Use": "Co", "Unassigned": "Cn",
}

// normalizeQuantifier writes the quantifier {n}, {n,} or {n,m} at the start
// of s without leading zeros and returns its length, or returns 0 if s does
// not start with a quantifier.
func normalizeQuantifier(b *strings.Builder, s string) int {
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return 0
	}
	lo, hi, comma := strings.Cut(s[1:end], ",")
	if !allDigits(lo) || (comma && hi != "" && !allDigits(hi)) {
		return 0
	}
	b.WriteByte('{')
	b.WriteString(trimZeros(lo))
	if comma {
		b.WriteByte(',')
		if hi != "" {
			b.WriteString(trimZeros(hi))
		}
	}
	b.WriteByte('}')
	return end + 1
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}
