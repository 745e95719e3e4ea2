package swift

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gomcp/sdk/pkgdocs/internal/srclex"
)

// tokKind classifies a Swift token.
type tokKind int

const (
	tIdent  tokKind = iota // identifiers and keywords, `escaped`, #directives, @attributes
	tPunct                 // one punctuation or operator character
	tString                // a string literal of any form
	tNumber
	tDoc // a /// line or a /** */ block; text holds the comment's text
)

// token is one lexed Swift token: text is its source (or, for identifiers
// in backticks, the bare name; for docs, the comment text).
type token struct {
	kind       tokKind
	text       string
	start, end int
	space      bool // whitespace or a comment precedes it
	nl         bool // a line break precedes it
}

// lex splits Swift source into tokens. It never fails: unterminated
// strings and comments run to the end of the input.
func lex(src string) []token {
	var toks []token
	space, nl := false, false
	emit := func(k tokKind, start, end int, text string) {
		toks = append(toks, token{kind: k, text: text, start: start, end: end, space: space, nl: nl})
		space, nl = false, false
	}
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			space, nl = true, true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			space = true
			i++
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			if strings.HasPrefix(src[i:], "///") && !strings.HasPrefix(src[i:], "////") {
				emit(tDoc, i, i+end, strings.TrimSuffix(src[i+3:i+end], "\r"))
			} else {
				space = true
			}
			i += end
		case strings.HasPrefix(src[i:], "/*"):
			end := srclex.BlockCommentEnd(src, i)
			if strings.HasPrefix(src[i:], "/**") && !strings.HasPrefix(src[i:], "/**/") && !strings.HasPrefix(src[i:], "/***") {
				emit(tDoc, i, end, srclex.BlockDocText(src[i:end]))
			} else {
				space = true
			}
			i = end
		case c == '"' || c == '#' && rawStringAt(src, i):
			end := stringEnd(src, i)
			emit(tString, i, end, src[i:end])
			i = end
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (srclex.IsIdentByte(src[j]) || src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9') {
				j++
			}
			emit(tNumber, i, j, src[i:j])
			i = j
		case c == '`':
			end := strings.IndexByte(src[i+1:], '`')
			if end < 0 || strings.ContainsAny(src[i+1:i+1+end], "\n") {
				emit(tPunct, i, i+1, "`")
				i++
				continue
			}
			emit(tIdent, i, i+2+end, src[i+1:i+1+end])
			i += 2 + end
		case (c == '#' || c == '@' || c == '$') && i+1 < len(src) && identStart(src, i+1):
			j := identEnd(src, i+1)
			emit(tIdent, i, j, src[i:j])
			i = j
		case identStart(src, i):
			j := identEnd(src, i)
			emit(tIdent, i, j, src[i:j])
			i = j
		default:
			_, n := utf8.DecodeRuneInString(src[i:])
			emit(tPunct, i, i+n, src[i:i+n])
			i += n
		}
	}
	return toks
}

func identStart(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return r == '_' || unicode.IsLetter(r)
}

func identEnd(src string, i int) int {
	for i < len(src) {
		r, n := utf8.DecodeRuneInString(src[i:])
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		i += n
	}
	return i
}

// rawStringAt reports whether a raw string (#"...", ##"""...) starts at i.
func rawStringAt(src string, i int) bool {
	j := i
	for j < len(src) && src[j] == '#' {
		j++
	}
	return j > i && j < len(src) && src[j] == '"'
}

// stringEnd returns the index after the string literal starting at i:
// "..." with \( interpolations (nested strings included), """ multi-line
// """, and raw #"..."# forms.
func stringEnd(src string, i int) int {
	hashes := 0
	for i < len(src) && src[i] == '#' {
		hashes++
		i++
	}
	delim := `"`
	if strings.HasPrefix(src[i:], `"""`) {
		delim = `"""`
	}
	closing := delim + strings.Repeat("#", hashes)
	escape := `\` + strings.Repeat("#", hashes)
	j := i + len(delim)
	for j < len(src) {
		switch {
		case strings.HasPrefix(src[j:], escape+"("):
			j = interpolationEnd(src, j+len(escape)+1)
		case strings.HasPrefix(src[j:], escape):
			j += len(escape) + 1
		case strings.HasPrefix(src[j:], closing):
			return j + len(closing)
		case src[j] == '\n' && delim == `"`:
			return j // an unterminated single-line string ends at the line
		default:
			j++
		}
	}
	return len(src)
}

// interpolationEnd returns the index after the ')' closing an
// interpolation whose body starts at i.
func interpolationEnd(src string, i int) int {
	depth := 1
	for i < len(src) {
		switch c := src[i]; {
		case c == '"' || c == '#' && rawStringAt(src, i):
			i = stringEnd(src, i)
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '\n':
			return i
		}
		i++
	}
	return len(src)
}

// stringValue returns the contents of a simple string literal token,
// unescaping \" and \\; interpolations are kept as written.
func stringValue(lit string) string {
	s := strings.TrimLeft(lit, "#")
	s = strings.TrimRight(s, "#")
	switch {
	case strings.HasPrefix(s, `"""`) && strings.HasSuffix(s, `"""`) && len(s) >= 6:
		s = strings.TrimSpace(s[3 : len(s)-3])
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		s = s[1 : len(s)-1]
	default:
		return strings.Trim(s, `"`)
	}
	if !strings.HasPrefix(lit, "#") {
		s = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(s)
	}
	return s
}
