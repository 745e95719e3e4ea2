package npm

import "strings"

// dtsFile is one parsed declaration file.
type dtsFile struct {
	file       string
	stmts      []statement
	references []string             // /// <reference path="..." /> targets
	hasExports bool                 // a module, not a global script
	exports    exports              // what the top-level statements export
	imports    map[string]importRef // bindings imported at the top level, computed when first needed
	decls      map[string][]int     // "kind name" -> top-level statements declaring it, computed when first needed
	members    map[int][]member     // members of interface statements already parsed
}

// declared returns the indexes of the top-level statements declaring name
// as kind ("interface", "type").
func (f *dtsFile) declared(kind, name string) []int {
	if f.decls == nil {
		f.decls = map[string][]int{}
		for i, st := range f.stmts {
			if m := declRE.FindStringSubmatch(st.text); m != nil {
				k := declKind(m[1]) + " " + m[2]
				f.decls[k] = append(f.decls[k], i)
			}
		}
	}
	return f.decls[kind+" "+name]
}

// membersOf returns the members of the interface statement i.
func (f *dtsFile) membersOf(i int) []member {
	if f.members == nil {
		f.members = map[int][]member{}
	}
	m, ok := f.members[i]
	if !ok {
		m = parseMembers(body(f.stmts[i].raw))
		f.members[i] = m
	}
	return m
}

func parseDTS(file, src string) *dtsFile {
	f := &dtsFile{file: file, stmts: splitStatements(src)}
	if strings.Contains(src, "<reference") { // the regexp over a large file costs more
		for _, m := range referenceRE.FindAllStringSubmatch(src, 200) {
			f.references = append(f.references, m[1])
		}
	}
	f.exports = exportsOf(f.stmts)
	f.hasExports = f.exports.hasExports
	return f
}

// exportsOfStmts is exportsOf, from the file's cache when stmts are the
// file's top-level statements (read again for every filter a file is
// scanned with).
func (f *dtsFile) exportsOfStmts(stmts []statement) exports {
	if f.exports.names != nil && len(stmts) == len(f.stmts) && len(stmts) > 0 && &stmts[0] == &f.stmts[0] {
		return f.exports
	}
	return exportsOf(stmts)
}

// importRef is one imported binding: the module specifier and the name
// it has there ("*" for a namespace import, "default" for a default one).
type importRef struct {
	spec, name string
}

// exports is what a list of statements exports.
type exports struct {
	names      map[string]string    // local name -> exported name
	imports    map[string]importRef // local name -> where it comes from
	hasExports bool                 // the file is a module
	equals     string               // local name of "export = x"
	defaultOf  string               // local name of "export default x"
	merged     map[string]bool      // names declared both as namespace and as function or class
}

// exportsOf reads which local names statements export, and under what
// name; what they import; whether they export anything at all (else the
// file is a global script); and the local name of "export = x", if any.
func exportsOf(stmts []statement) exports {
	ex := exports{names: map[string]string{}, imports: map[string]importRef{}, merged: map[string]bool{}}
	kinds := map[string]string{}
	for _, st := range stmts {
		t := st.text
		switch {
		case requireRE.MatchString(t):
			if m := requireRE.FindStringSubmatch(t); m[1] != "" {
				ex.hasExports = true
				ex.names[m[2]] = m[2]
			}
		case importRE.MatchString(t):
			m := importRE.FindStringSubmatch(t)
			if m[1] != "" {
				ex.imports[m[1]] = importRef{m[4], "default"}
			}
			if m[2] != "" {
				ex.imports[m[2]] = importRef{m[4], "*"}
			}
			for remote, local := range parseSpecifiers(m[3]) {
				// import { a as b }: the local binding b is a over there.
				ex.imports[local] = importRef{m[4], remote}
			}
		case reexportRE.MatchString(t), asNamespace.MatchString(t):
			ex.hasExports = true
		case localExpRE.MatchString(t):
			ex.hasExports = true
			for local, as := range parseSpecifiers(localExpRE.FindStringSubmatch(t)[1]) {
				ex.names[local] = as
			}
		case defaultRE.MatchString(t):
			ex.hasExports = true
			name := defaultRE.FindStringSubmatch(t)[1]
			ex.names[name] = name
			if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(t, "export")), "=") {
				ex.equals = name
			} else {
				ex.defaultOf = name
			}
		case strings.HasPrefix(t, "export ") && (ambientRE.MatchString(t) || globalRE.MatchString(t)):
			ex.hasExports = true
		default:
			if m := declRE.FindStringSubmatch(t); m != nil {
				k := declKind(m[1])
				if prev, ok := kinds[m[2]]; ok && (prev == "namespace") != (k == "namespace") && prev != "interface" && k != "interface" {
					ex.merged[m[2]] = true
				}
				kinds[m[2]] = k
				if strings.HasPrefix(t, "export") {
					if strings.HasPrefix(t, "export default ") {
						ex.defaultOf = m[2]
					}
					ex.hasExports = true
					ex.names[m[2]] = m[2]
				}
			}
		}
	}
	return ex
}

// body returns the text between a statement's outermost braces: the body
// of a class, interface, namespace or module (its last top-level brace
// group: generic arguments holding object types come before it). Braces
// in comments, strings and template literals do not count.
func body(t string) string {
	open, end := lastBraceGroup(t)
	if open < 0 {
		return ""
	}
	return t[open+1 : end]
}

// lastBraceGroup returns the offsets of the braces opening and closing
// the last top-level brace group of t, or -1, -1.
func lastBraceGroup(t string) (int, int) {
	depth, open, lastOpen, lastClose := 0, -1, -1, -1
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '/' && i+1 < len(t) && t[i+1] == '/':
			j := strings.IndexByte(t[i:], '\n')
			if j < 0 {
				return lastOpen, lastClose
			}
			i += j
		case c == '/' && i+1 < len(t) && t[i+1] == '*':
			j := strings.Index(t[i+2:], "*/")
			if j < 0 {
				return lastOpen, lastClose
			}
			i += j + 3
		case c == '"' || c == '\'':
			i = skipString(t, i) - 1
		case c == '`':
			i = skipTemplate(t, i) - 1
		case c == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case c == '}':
			if depth > 0 {
				if depth--; depth == 0 {
					lastOpen, lastClose = open, i
				}
			}
		}
	}
	return lastOpen, lastClose
}

// member is one member of a class or interface.
type member struct {
	name, kind, sig, doc string
}

// parseMembers reads the public members of a class or interface body:
// methods (overloads become separate members of the same name), properties
// and accessors; private, protected, #private, index and call signatures
// are skipped.
func parseMembers(b string) []member {
	var out []member
	for _, st := range splitMembers(b) {
		t := strings.TrimSuffix(strings.TrimSpace(st.text), ";")
		t = strings.TrimSuffix(t, ",")
		rest := t
		accessor := false
		for {
			w, after, _ := strings.Cut(rest, " ")
			switch w {
			case "public", "static", "readonly", "abstract", "declare", "override", "accessor", "async":
				rest = strings.TrimSpace(after)
				continue
			case "get", "set":
				if after != "" && !strings.HasPrefix(after, "(") {
					accessor = true
					rest = strings.TrimSpace(after)
					continue
				}
			case "private", "protected":
				rest = ""
			}
			break
		}
		name := memberName(rest)
		if name == "" {
			continue
		}
		after := strings.TrimPrefix(strings.TrimPrefix(rest[len(name):], "?"), "!")
		kind := "property"
		if !accessor && (strings.HasPrefix(after, "(") || strings.HasPrefix(after, "<")) {
			kind = "method"
		}
		out = append(out, member{name: strings.Trim(name, `"'`), kind: kind, sig: dedent(t), doc: st.doc})
	}
	return out
}

// memberName returns the identifier (or quoted name) a member declaration
// starts with, or "" for index signatures, call signatures and private
// names.
func memberName(t string) string {
	if t == "" {
		return ""
	}
	if t[0] == '"' || t[0] == '\'' {
		if j := strings.IndexByte(t[1:], t[0]); j >= 0 {
			return t[:j+2]
		}
		return ""
	}
	i := 0
	for i < len(t) && (t[i] == '_' || t[i] == '$' || t[i] >= 'a' && t[i] <= 'z' || t[i] >= 'A' && t[i] <= 'Z' || i > 0 && t[i] >= '0' && t[i] <= '9') {
		i++
	}
	if i == 0 {
		return ""
	}
	return t[:i]
}
