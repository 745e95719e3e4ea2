package npm

import "strings"

// statement is one top-level TypeScript statement and the JSDoc before it.
type statement struct {
	text string // the statement without comments
	raw  string // the statement's source, comments included
	doc  string
}

// splitStatements splits TypeScript declaration source into top-level
// statements. It understands comments, string and template literals
// (with ${} nesting) and bracket nesting; a statement ends at a ';' or at a
// line break after a closing bracket at depth 0 when the next line does not
// continue it.
func splitStatements(src string) []statement {
	return split(src, false)
}

// splitMembers splits the body of a class or interface into members: like
// splitStatements, but a member also ends at a line break after any
// complete text ("x: string" with no semicolon).
func splitMembers(body string) []statement {
	return split(body, true)
}

func split(src string, members bool) []statement {
	var out []statement
	var cur strings.Builder
	var doc string
	depth := 0
	start := -1 // offset of the statement's first byte in src
	flush := func(end int) {
		t := strings.TrimSpace(cur.String())
		if t != "" && t != ";" {
			raw := t
			if start >= 0 && end >= start {
				raw = src[start:min(end, len(src))]
			}
			out = append(out, statement{text: t, raw: raw, doc: doc})
		}
		cur.Reset()
		doc = ""
		start = -1
	}
	mark := func(i int) {
		if start < 0 {
			start = i
		}
	}
	n := len(src)
	for i := 0; i < n; i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = n - i
			}
			i += j - 1
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			end := n
			if j >= 0 {
				end = i + 2 + j + 2
			}
			if depth == 0 && strings.TrimSpace(cur.String()) == "" && strings.HasPrefix(src[i:], "/**") {
				doc = cleanJSDoc(src[i:end])
			}
			i = end - 1
			continue
		case c == '"' || c == '\'':
			mark(i)
			j := skipString(src, i)
			cur.WriteString(src[i:j])
			i = j - 1
			continue
		case c == '`':
			mark(i)
			j := skipTemplate(src, i)
			cur.WriteString(src[i:j])
			i = j - 1
			continue
		case c == '{' || c == '(' || c == '[':
			depth++
		case c == '}' || c == ')' || c == ']':
			if depth > 0 {
				depth--
			}
		case c == ';' && depth == 0:
			cur.WriteByte(c)
			flush(i + 1)
			continue
		case c == '\n' && depth == 0:
			t := strings.TrimSpace(cur.String())
			if t != "" && (statementComplete(t) || (members || startsDeclaration(src[i+1:])) && memberComplete(t)) && !continues(src[i+1:]) {
				flush(i)
				continue
			}
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			mark(i)
		}
		cur.WriteByte(c)
	}
	flush(n)
	return out
}

// statementComplete reports a statement that may end at a line break.
func statementComplete(t string) bool {
	last := t[len(t)-1]
	if last == '}' || last == ')' || last == ']' {
		return true
	}
	// export … from "x" / import … from 'x' without a semicolon
	return (last == '"' || last == '\'') && (strings.HasPrefix(t, "export") || strings.HasPrefix(t, "import"))
}

// memberComplete reports a member that may end at a line break: one that
// does not end in an operator waiting for more.
func memberComplete(t string) bool {
	switch t[len(t)-1] {
	case '|', '&', ',', '=', ':', '(', '<', '{', '[', '?':
		return false
	}
	return true
}

// declarationStarts are the words a top-level declaration starts with.
var declarationStarts = []string{"declare ", "export ", "import ", "interface ", "type ", "function ", "class ",
	"namespace ", "module ", "const ", "let ", "var ", "enum ", "abstract ", "async "}

// startsDeclaration reports whether the next non-blank text starts a new
// declaration: a statement without a semicolon ("declare function f(): T")
// ends at the line break before it, so one statement never holds the next.
func startsDeclaration(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	for _, w := range declarationStarts {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// continues reports whether the next non-blank text continues the current
// statement (a union, intersection, member access, ...).
func continues(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" {
		return false
	}
	switch rest[0] {
	case '|', '&', '.', ',', '=', '?', ':', '<', '>', '(', '[', '{':
		return !strings.HasPrefix(rest, "/*") && !strings.HasPrefix(rest, "//")
	}
	return strings.HasPrefix(rest, "extends ") || strings.HasPrefix(rest, "implements ")
}

func skipString(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q, '\n':
			return j + 1
		}
	}
	return len(src)
}

func skipTemplate(src string, i int) int {
	depth := 0
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				depth++
				j++
			}
		case '}':
			if depth > 0 {
				depth--
			}
		case '`':
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// cleanJSDoc turns a /** */ comment into markdown: the leading stars go,
// a @summary comes first, and catalogue tags (@name, @alias, @category,
// @description alone on its line) are dropped.
func cleanJSDoc(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	var lines []string
	var summary string
	for _, l := range strings.Split(c, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimPrefix(l, "*"), " ")
		tag, rest, _ := strings.Cut(l, " ")
		switch tag {
		case "@name", "@alias", "@category", "@kind":
			continue
		case "@description":
			if l = strings.TrimSpace(rest); l == "" {
				continue
			}
		case "@summary":
			summary = strings.TrimSpace(rest)
			continue
		}
		lines = append(lines, l)
	}
	out := strings.TrimSpace(strings.Join(lines, "\n"))
	if summary != "" {
		out = strings.TrimSpace(summary + "\n\n" + out)
	}
	return out
}
