package npm

import (
	"path"
	"regexp"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// statement is one top-level TypeScript statement and the JSDoc before it.
type statement struct {
	text string
	doc  string
}

// splitStatements splits TypeScript declaration source into top-level
// statements. It understands comments, string and template literals
// (with ${} nesting) and bracket nesting; a statement ends at a ';' or at a
// line break after a closing bracket at depth 0 when the next line does not
// continue it.
func splitStatements(src string) []statement {
	var out []statement
	var cur strings.Builder
	var doc string
	depth := 0
	flush := func() {
		t := strings.TrimSpace(cur.String())
		if t != "" && t != ";" {
			out = append(out, statement{text: t, doc: doc})
		}
		cur.Reset()
		doc = ""
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
			j := skipString(src, i)
			cur.WriteString(src[i:j])
			i = j - 1
			continue
		case c == '`':
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
			flush()
			continue
		case c == '\n' && depth == 0:
			t := strings.TrimSpace(cur.String())
			if t != "" && statementComplete(t) && !continues(src[i+1:]) {
				flush()
				continue
			}
		}
		cur.WriteByte(c)
	}
	flush()
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

func cleanJSDoc(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	var lines []string
	for _, l := range strings.Split(c, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimPrefix(l, "*"), " ")
		lines = append(lines, l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

var (
	declRE     = regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|const|let|var|enum|namespace|module|const\s+enum)\s+([A-Za-z_$][\w$]*)`)
	reexportRE = regexp.MustCompile(`^export\s+(type\s+)?(\*(?:\s+as\s+([A-Za-z_$][\w$]*))?|\{([^}]*)\})\s+from\s+['"]([^'"]+)['"]`)
	localExpRE = regexp.MustCompile(`^export\s+(?:type\s+)?\{([^}]*)\}\s*;?$`)
	defaultRE  = regexp.MustCompile(`^export\s+(?:default|=)\s+([A-Za-z_$][\w$]*)\s*;?$`)
	requireRE  = regexp.MustCompile(`^(export\s+)?import\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)`)
)

// Scanner extracts exported declarations from .d.ts files, following
// re-exports between files of the same package.
type Scanner struct {
	// Read returns a file of the package; paths are relative to its root.
	Read       func(name string) ([]byte, bool)
	MaxSymbols int // default 2000
	MaxFiles   int // default 200
	visited    map[string]bool
	files      int
}

// Scan returns the symbols exported by entry (a path relative to the
// package root).
func (s *Scanner) Scan(entry string) []model.Symbol {
	if s.MaxSymbols == 0 {
		s.MaxSymbols = 2000
	}
	if s.MaxFiles == 0 {
		s.MaxFiles = 200
	}
	s.visited = map[string]bool{}
	var out []model.Symbol
	s.scanFile(path.Clean(entry), nil, "", &out)
	return out
}

// scanFile appends the symbols file exports. only, when non-nil, limits and
// renames them (export {a as b} from); prefix qualifies them (export * as ns).
func (s *Scanner) scanFile(file string, only map[string]string, prefix string, out *[]model.Symbol) {
	key := file + "\x00" + prefix
	if s.visited[key] || s.files >= s.MaxFiles || len(*out) >= s.MaxSymbols {
		return
	}
	s.visited[key] = true
	s.files++
	src, ok := s.Read(file)
	if !ok {
		return
	}
	stmts := splitStatements(string(src))
	exported, hasExports, exportEquals := exportsOf(stmts)
	// Emit in source order.
	for _, st := range stmts {
		if len(*out) >= s.MaxSymbols {
			return
		}
		t := st.text
		if m := reexportRE.FindStringSubmatch(t); m != nil {
			s.reexport(file, st, m, only, prefix, out)
			continue
		}
		if m := requireRE.FindStringSubmatch(t); m != nil {
			// import x = require("./x"); export { x as y }: y is what ./x
			// declares with "export =".
			if as, ok := exported[m[2]]; ok {
				if as, ok = rename(only, as); ok {
					if target := resolveDTS(file, m[3], s.Read); target != "" {
						s.scanFile(target, map[string]string{"=": as}, prefix, out)
					}
				}
			}
			continue
		}
		m := declRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name := m[2]
		as, ok := exported[name]
		if !hasExports {
			as, ok = name, true // a global script: everything it declares is visible
		}
		if !ok {
			continue
		}
		if only != nil {
			renamed, want := only[as]
			if !want && as == exportEquals {
				renamed, want = only["="]
			}
			if !want {
				continue
			}
			as = renamed
		}
		*out = append(*out, model.Symbol{Name: prefix + as, Kind: declKind(m[1]), Signature: signature(t), Doc: st.doc, File: file})
	}
}

// exportsOf reads which local names a file's statements export, and under
// what name; whether the file exports anything at all (else it is a global
// script); and the local name of its "export = x", if any.
func exportsOf(stmts []statement) (exported map[string]string, hasExports bool, exportEquals string) {
	exported = map[string]string{} // local name -> exported name
	for _, st := range stmts {
		t := st.text
		switch {
		case requireRE.MatchString(t):
			if m := requireRE.FindStringSubmatch(t); m[1] != "" {
				hasExports = true
				exported[m[2]] = m[2]
			}
		case reexportRE.MatchString(t):
			hasExports = true
		case localExpRE.MatchString(t):
			hasExports = true
			for local, as := range parseSpecifiers(localExpRE.FindStringSubmatch(t)[1]) {
				exported[local] = as
			}
		case defaultRE.MatchString(t):
			hasExports = true
			name := defaultRE.FindStringSubmatch(t)[1]
			exported[name] = name
			if strings.Contains(t, "=") {
				exportEquals = name
			}
		default:
			if m := declRE.FindStringSubmatch(t); m != nil && strings.HasPrefix(t, "export") {
				hasExports = true
				exported[m[2]] = m[2]
			}
		}
	}
	return exported, hasExports, exportEquals
}

// rename applies an export filter to a name: the new name, or false when
// the name is not wanted.
func rename(only map[string]string, name string) (string, bool) {
	if only == nil {
		return name, true
	}
	as, ok := only[name]
	return as, ok
}

func declKind(k string) string {
	switch k = strings.Fields(k)[0]; k {
	case "function*":
		return "function"
	case "let", "var":
		return "const"
	case "module":
		return "namespace"
	}
	return k
}

// reexport follows one "export … from" statement.
func (s *Scanner) reexport(file string, st statement, m []string, only map[string]string, prefix string, out *[]model.Symbol) {
	target := resolveDTS(file, m[5], s.Read)
	if target == "" {
		return
	}
	switch {
	case m[4] != "":
		sel := parseSpecifiers(m[4])
		if only != nil {
			sel = restrict(sel, only)
		}
		s.scanFile(target, sel, prefix, out)
	case m[3] != "":
		name := m[3]
		if only != nil {
			renamed, ok := only[name]
			if !ok {
				return
			}
			name = renamed
		}
		*out = append(*out, model.Symbol{Name: prefix + name, Kind: "namespace", Signature: st.text, Doc: st.doc, File: file})
		s.scanFile(target, nil, prefix+name+".", out)
	default:
		s.scanFile(target, only, prefix, out)
	}
}

// parseSpecifiers parses "a, b as c, type d" into local -> exported names.
func parseSpecifiers(list string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(list, ",") {
		f := strings.Fields(part)
		if len(f) > 0 && f[0] == "type" && len(f) > 1 {
			f = f[1:]
		}
		switch {
		case len(f) == 1:
			out[f[0]] = f[0]
		case len(f) == 3 && f[1] == "as":
			out[f[0]] = f[2]
		}
	}
	return out
}

// restrict keeps the specifiers whose exported name is wanted, renamed.
func restrict(sel, only map[string]string) map[string]string {
	out := map[string]string{}
	for local, as := range sel {
		if final, ok := only[as]; ok {
			out[local] = final
		}
	}
	return out
}

// resolveDTS maps a relative module specifier to a declaration file.
func resolveDTS(from, spec string, read func(string) ([]byte, bool)) string {
	if !strings.HasPrefix(spec, ".") {
		return "" // another package
	}
	base := path.Join(path.Dir(from), spec)
	var cands []string
	switch {
	case strings.HasSuffix(base, ".js"):
		cands = append(cands, strings.TrimSuffix(base, ".js")+".d.ts")
	case strings.HasSuffix(base, ".cjs"):
		cands = append(cands, strings.TrimSuffix(base, ".cjs")+".d.cts")
	case strings.HasSuffix(base, ".mjs"):
		cands = append(cands, strings.TrimSuffix(base, ".mjs")+".d.mts")
	case strings.HasSuffix(base, ".d.ts"), strings.HasSuffix(base, ".d.cts"), strings.HasSuffix(base, ".d.mts"):
		cands = append(cands, base)
	}
	cands = append(cands, base+".d.ts", base+".d.cts", base+".d.mts", base+"/index.d.ts", base+"/index.d.cts", base+"/index.d.mts")
	for _, c := range cands {
		if _, ok := read(c); ok {
			return c
		}
	}
	return ""
}

// signature shortens a declaration for display: bodies of classes,
// interfaces and namespaces beyond 30 lines are elided.
func signature(t string) string {
	t = strings.TrimSuffix(strings.TrimSpace(t), ";")
	for _, kw := range []string{"export ", "default ", "declare "} {
		t = strings.TrimPrefix(t, kw)
	}
	lines := strings.Split(t, "\n")
	if len(lines) > 30 {
		lines = append(lines[:29], "  // …", lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}
