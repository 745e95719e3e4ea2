package rust

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gomcp/sdk/pkgdocs/internal/srclex"
)

// tokKind classifies a Rust token.
type tokKind int

const (
	tIdent    tokKind = iota
	tPunct            // one punctuation character
	tLiteral          // string, char or number
	tLifetime         // 'a
	tDocOuter         // /// or /** */
	tDocInner         // //! or /*! */
)

// token is one lexed Rust token. text is the source slice, except for doc
// comments, where it is the comment's text without its markers.
type token struct {
	kind       tokKind
	text       string
	start, end int
	space      bool // whitespace or a comment precedes it
}

// lex splits Rust source into tokens. It never fails: an unterminated
// string or comment runs to the end of the input.
func lex(src string) []token {
	toks := make([]token, 0, len(src)/6)
	space := false
	i := 0
	emit := func(k tokKind, start, end int, text string) {
		toks = append(toks, token{kind: k, text: text, start: start, end: end, space: space})
		space = false
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			space = true
			i++
		case strings.HasPrefix(src[i:], "//") || strings.HasPrefix(src[i:], "/*"):
			end, kind, text := comment(src, i)
			if kind == tPunct { // a plain comment
				space = true
			} else {
				emit(kind, i, end, text)
			}
			i = end
		case c == '"':
			end := quotedEnd(src, i+1, '"')
			emit(tLiteral, i, end, src[i:end])
			i = end
		case c == '\'':
			end, lifetime := quoteOrLifetime(src, i)
			k := tLiteral
			if lifetime {
				k = tLifetime
			}
			emit(k, i, end, src[i:end])
			i = end
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (srclex.IsIdentByte(src[j]) || src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9') {
				j++
			}
			emit(tLiteral, i, j, src[i:j])
			i = j
		case isIdentStart(src, i):
			if end, ok := prefixedString(src, i); ok {
				emit(tLiteral, i, end, src[i:end])
				i = end
				continue
			}
			j := i
			if strings.HasPrefix(src[i:], "r#") {
				j += 2
			}
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
					break
				}
				j += n
			}
			if j == i || j == i+2 && strings.HasPrefix(src[i:], "r#") {
				j = i + 1
			}
			emit(tIdent, i, j, strings.TrimPrefix(src[i:j], "r#"))
			i = j
		default:
			_, n := utf8.DecodeRuneInString(src[i:])
			emit(tPunct, i, i+n, src[i:i+n])
			i += n
		}
	}
	return toks
}

// comment lexes the comment at i: a doc comment (tDocOuter, tDocInner,
// with its text) or a plain one (tPunct, ignored).
func comment(src string, i int) (end int, kind tokKind, text string) {
	if strings.HasPrefix(src[i:], "//") {
		n := strings.IndexByte(src[i:], '\n')
		if n < 0 {
			n = len(src) - i
		}
		line := src[i : i+n]
		switch {
		case strings.HasPrefix(line, "///") && !strings.HasPrefix(line, "////"):
			return i + n, tDocOuter, strings.TrimSuffix(line[3:], "\r")
		case strings.HasPrefix(line, "//!"):
			return i + n, tDocInner, strings.TrimSuffix(line[3:], "\r")
		}
		return i + n, tPunct, ""
	}
	end = srclex.BlockCommentEnd(src, i)
	body := src[i:end]
	switch {
	case strings.HasPrefix(body, "/**") && !strings.HasPrefix(body, "/***") && body != "/**/":
		return end, tDocOuter, srclex.BlockDocText(body)
	case strings.HasPrefix(body, "/*!"):
		return end, tDocInner, srclex.BlockDocText(body)
	}
	return end, tPunct, ""
}

func isIdentStart(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return r == '_' || unicode.IsLetter(r)
}

// quotedEnd returns the index after the closing quote, honouring escapes.
func quotedEnd(src string, i int, q byte) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case q:
			return i + 1
		}
		i++
	}
	return len(src)
}

// quoteOrLifetime tells a char literal ('a', '\n', 'é') from a lifetime or
// label ('a, 'static) at i.
func quoteOrLifetime(src string, i int) (int, bool) {
	if i+1 >= len(src) {
		return len(src), false
	}
	if src[i+1] == '\\' {
		return quotedEnd(src, i+1, '\''), false
	}
	_, n := utf8.DecodeRuneInString(src[i+1:])
	if i+1+n < len(src) && src[i+1+n] == '\'' {
		return i + 2 + n, false
	}
	j := i + 1
	for j < len(src) {
		r, n := utf8.DecodeRuneInString(src[j:])
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		j += n
	}
	if j == i+1 {
		return i + 1, false // a lone quote
	}
	return j, true
}

// prefixedString lexes b"..", c"..", r"..", r#".."#, br#".."# and b'x'.
func prefixedString(src string, i int) (int, bool) {
	j := i
	for j < len(src) && j-i < 2 && (src[j] == 'b' || src[j] == 'c' || src[j] == 'r') {
		j++
	}
	if j == i {
		return 0, false
	}
	prefix := src[i:j]
	raw := strings.HasSuffix(prefix, "r")
	if !raw {
		if j < len(src) && src[j] == '"' {
			return quotedEnd(src, j+1, '"'), true
		}
		if prefix == "b" && j < len(src) && src[j] == '\'' {
			return quotedEnd(src, j+1, '\''), true
		}
		return 0, false
	}
	hashes := 0
	for j < len(src) && src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return 0, false
	}
	closing := "\"" + strings.Repeat("#", hashes)
	end := strings.Index(src[j+1:], closing)
	if end < 0 {
		return len(src), true
	}
	return j + 1 + end + len(closing), true
}
