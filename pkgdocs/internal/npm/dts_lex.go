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
	s := &splitter{src: src, members: members, start: -1}
	for i := 0; i < len(src); i++ {
		i = s.step(i)
	}
	s.flush(len(src))
	return s.out
}

// splitter holds the state of one split: the statements so far and the
// one being read.
type splitter struct {
	src     string
	members bool
	out     []statement
	cur     strings.Builder
	doc     string
	depth   int
	start   int // offset of the current statement's first byte in src, or -1
}

// flush ends the current statement at offset end.
func (s *splitter) flush(end int) {
	t := strings.TrimSpace(s.cur.String())
	if t != "" && t != ";" {
		raw := t
		if s.start >= 0 && end >= s.start {
			raw = s.src[s.start:min(end, len(s.src))]
		}
		s.out = append(s.out, statement{text: t, raw: raw, doc: s.doc})
	}
	s.cur.Reset()
	s.doc = ""
	s.start = -1
}

// mark records offset i as the current statement's start if it has none.
func (s *splitter) mark(i int) {
	if s.start < 0 {
		s.start = i
	}
}

// step reads the token at offset i and returns the offset of its last byte.
func (s *splitter) step(i int) int {
	src, n := s.src, len(s.src)
	c := src[i]
	switch {
	case c == '/' && i+1 < n && (src[i+1] == '/' || src[i+1] == '*'):
		return s.comment(i)
	case c == '"' || c == '\'' || c == '`':
		s.mark(i)
		var j int
		if c == '`' {
			j = skipTemplate(src, i)
		} else {
			j = skipString(src, i)
		}
		s.cur.WriteString(src[i:j])
		return j - 1
	case c == '{' || c == '(' || c == '[':
		s.depth++
	case c == '}' || c == ')' || c == ']':
		if s.depth > 0 {
			s.depth--
		}
	case c == ';' && s.depth == 0:
		s.cur.WriteByte(c)
		s.flush(i + 1)
		return i
	case c == '\n' && s.depth == 0:
		t := strings.TrimSpace(s.cur.String())
		if t != "" && (statementComplete(t) || (s.members || startsDeclaration(src[i+1:])) && memberComplete(t)) && !continues(src[i+1:]) {
			s.flush(i)
			return i
		}
	}
	if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
		s.mark(i)
	}
	s.cur.WriteByte(c)
	return i
}

// comment skips the comment at offset i, keeping a JSDoc block that
// starts a top-level statement as its doc, and returns the offset of the
// comment's last byte.
func (s *splitter) comment(i int) int {
	src, n := s.src, len(s.src)
	if src[i+1] == '/' {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			j = n - i
		}
		return i + j - 1
	}
	j := strings.Index(src[i+2:], "*/")
	end := n
	if j >= 0 {
		end = i + 2 + j + 2
	}
	if s.depth == 0 && strings.TrimSpace(s.cur.String()) == "" && strings.HasPrefix(src[i:], "/**") {
		s.doc = cleanJSDoc(src[i:end])
	}
	return end - 1
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
