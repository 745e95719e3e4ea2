// Package srclex holds the lexing pieces the Rust and Swift source scanners
// share: both languages have nestable /* */ block comments, /** */ doc
// comments with " * " decorations, and ASCII identifier bytes.
package srclex

import "strings"

// IsIdentByte reports whether c can be part of an ASCII identifier.
func IsIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// BlockCommentEnd returns the index just past the nestable block comment
// that starts at src[i] ("/*"), or len(src) if it is not closed.
func BlockCommentEnd(src string, i int) int {
	depth := 0
	for j := i; j < len(src)-1; j++ {
		switch {
		case src[j] == '/' && src[j+1] == '*':
			depth++
			j++
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// BlockDocText returns the text of a block doc comment: body is the whole
// comment, opened by a three-byte marker ("/**", or Rust's "/*!"); the
// closing "*/" and leading " * " decorations are removed.
func BlockDocText(body string) string {
	if len(body) >= 3 {
		body = body[3:]
	}
	body = strings.TrimSuffix(body, "*/")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "*") {
			lines[i] = strings.TrimPrefix(t[1:], " ")
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
