package npm

import (
	"regexp"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxHeritageDepth bounds how many interfaces up an extends chain members
// are inherited from.
const maxHeritageDepth = 6

// inheritExternal gives the interface owner (declared by text t in file)
// the members of the interfaces it extends that are imported from another
// package ("interface Application extends core.Application {}" with
// "import * as core from \"express-serve-static-core\""), and the members
// those inherit in turn. Members the interface declares itself win.
func (s *Scanner) inheritExternal(owner, file, t string) {
	imports := s.fileImports(file)
	for _, base := range heritage(t) {
		ref, name, ok := importedName(imports, base)
		if !ok || strings.HasPrefix(ref.spec, ".") {
			continue
		}
		target := s.External(file, ref.spec)
		if target == "" {
			continue
		}
		s.inheritFrom(owner, target, name, 1, map[string]bool{})
	}
}

// importedName maps a base type written in a file ("core.Application",
// "Application") to the import it comes through and its name there.
func importedName(imports map[string]importRef, base string) (importRef, string, bool) {
	if ns, name, dotted := strings.Cut(base, "."); dotted {
		ref, ok := imports[ns]
		if !ok || ref.name != "*" || strings.Contains(name, ".") {
			return importRef{}, "", false
		}
		return ref, name, true
	}
	ref, ok := imports[base]
	if !ok || ref.name == "*" || ref.name == "default" {
		return importRef{}, "", false
	}
	return ref, ref.name, true
}

// inheritFrom adds the members of interface name, declared at the top
// level of file, to owner as hidden members, then those of its bases: in
// the same file, or imported from others.
func (s *Scanner) inheritFrom(owner, file, name string, depth int, seen map[string]bool) {
	key := file + "\x00" + name
	if depth > maxHeritageDepth || seen[key] || s.full() {
		return
	}
	seen[key] = true
	f := s.read(file)
	if f == nil {
		return
	}
	var bases []string
	for _, i := range append(f.declared("interface", name), f.declared("class", name)...) {
		for _, mem := range f.membersOf(i) {
			sig := mem.sig
			if alias := s.memberAlias(f, file, mem); alias != "" {
				sig += "\n" + alias
			}
			s.add(model.Symbol{Name: owner + "." + mem.name, Kind: mem.kind, Signature: sig, Doc: mem.doc, File: file, Hidden: true})
		}
		bases = append(bases, heritage(f.stmts[i].text)...)
	}
	imports := s.fileImports(file)
	for _, base := range bases {
		if target, remote, ok := s.importedDeclaration(file, base); ok {
			s.inheritFrom(owner, target, remote, depth+1, seen)
			continue
		}
		if ref, remote, ok := importedName(imports, base); ok {
			if target := s.resolve(file, ref.spec); target != "" {
				s.inheritFrom(owner, target, remote, depth+1, seen)
			}
			continue
		}
		if !strings.Contains(base, ".") {
			s.inheritFrom(owner, file, base, depth+1, seen)
		}
	}
}

// memberTypeRE matches a property typed by one named type:
// "use: ApplicationRequestHandler<this>".
var memberTypeRE = regexp.MustCompile(`^[\w$"']+\??:\s*([A-Za-z_$][\w$]*)\s*(?:<[^;{}]*>)?$`)

// aliasOf returns the declaration of the type alias a property's type
// names, when file declares it in at most 8 lines, so that the property's
// callable forms are shown with it.
func aliasOf(f *dtsFile, mem member) string {
	if mem.kind != "property" {
		return ""
	}
	m := memberTypeRE.FindStringSubmatch(strings.TrimSpace(mem.sig))
	if m == nil {
		return ""
	}
	decls := f.declared("type", m[1])
	if len(decls) == 0 {
		return ""
	}
	if sig := signature(f.stmts[decls[0]].text); strings.Count(sig, "\n") < 8 {
		return sig
	}
	return ""
}

// fileImports returns the bindings a file imports: "import … from" and
// "import x = require()" (as a namespace).
func (s *Scanner) fileImports(file string) map[string]importRef {
	f := s.read(file)
	if f == nil {
		return nil
	}
	if f.imports == nil {
		f.imports = map[string]importRef{}
		for k, v := range f.exportsOfStmts(f.stmts).imports {
			f.imports[k] = v
		}
		for _, st := range f.stmts {
			if m := requireRE.FindStringSubmatch(st.text); m != nil {
				f.imports[m[2]] = importRef{m[3], "*"}
			}
		}
	}
	return f.imports
}

// typeNameRE matches a (possibly qualified) type name.
var typeNameRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$`)

// heritage returns the names an interface declaration extends, type
// arguments removed: "interface A<T extends X> extends B<T>, c.D {" gives
// B and c.D.
func heritage(t string) []string {
	loc := declRE.FindStringSubmatchIndex(t)
	if loc == nil {
		return nil
	}
	rest := strings.TrimSpace(t[loc[5]:])
	if strings.HasPrefix(rest, "<") {
		end := matchAngle(rest)
		if end < 0 {
			return nil
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	rest, ok := strings.CutPrefix(rest, "extends")
	if !ok || rest == "" || !isSpace(rest[0]) {
		return nil
	}
	var out []string
	depth, start := 0, 0
	emit := func(end int) {
		name := strings.TrimSpace(rest[start:end])
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = strings.TrimSpace(name[:i])
		}
		if typeNameRE.MatchString(name) && len(out) < 20 {
			out = append(out, name)
		}
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '<' || c == '(' || c == '[':
			depth++
		case (c == '>' && (i == 0 || rest[i-1] != '=')) || c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			emit(i)
			start = i + 1
		case c == '{' && depth == 0:
			emit(i)
			return out
		}
	}
	emit(len(rest))
	return out
}

// matchAngle returns the index of the '>' closing the '<' s starts with,
// or -1; "=>" arrows inside are not closers.
func matchAngle(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if i > 0 && s[i-1] == '=' {
				continue
			}
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// maxMemberAliasLines bounds an interface of call signatures shown with a
// property it types.
const maxMemberAliasLines = 40

// memberAlias is aliasOf, else the interface of call signatures (declared
// in file or imported into it) a property's type names, in at most
// maxMemberAliasLines lines: fastify's "get: RouteShorthandMethod<…>"
// shows how get is called.
func (s *Scanner) memberAlias(f *dtsFile, file string, mem member) string {
	if alias := aliasOf(f, mem); alias != "" || mem.kind != "property" {
		return alias
	}
	m := memberTypeRE.FindStringSubmatch(strings.TrimSpace(mem.sig))
	if m == nil {
		return ""
	}
	if _, local := f.decls["interface "+m[1]]; !local {
		if _, imported := s.fileImports(file)[m[1]]; !imported {
			return "" // not the package's: number, string, Promise…
		}
	}
	alias := s.typeAliasOf(file, m[1])
	if !strings.HasPrefix(alias, "interface ") || strings.Count(alias, "\n") >= maxMemberAliasLines {
		return ""
	}
	return alias
}
