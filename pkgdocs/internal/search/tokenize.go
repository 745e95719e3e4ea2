// Package search ranks a package's sections, symbols and examples against a
// query: BM25F over weighted fields, fuzzy matching of symbol names, and a
// guarantee that an exact symbol match ranks first.
package search

import (
	"strings"
	"unicode"
)

var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "and": true,
	"or": true, "is": true, "for": true, "on": true, "with": true, "how": true, "do": true,
	"i": true, "what": true, "by": true, "it": true, "be": true, "as": true, "at": true,
}

// Tokenize lowercases s and splits it into terms on punctuation, spaces,
// snake_case, dots, "::" and camelCase boundaries. A compound identifier also
// yields itself whole ("ReadAll" gives "read", "all" and "readall").
func Tokenize(s string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		parts := splitCamel(word)
		for _, p := range parts {
			p = strings.ToLower(p)
			if !stopwords[p] {
				out = append(out, p)
			}
		}
		if len(parts) > 1 {
			out = append(out, strings.ToLower(word))
		}
	}
	return out
}

// splitCamel splits "HTTPServerError" into "HTTP", "Server", "Error" and
// "parseInt2" into "parse", "Int2".
func splitCamel(w string) []string {
	rs := []rune(w)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		boundary := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur) ||
			unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next)
		if boundary {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}
