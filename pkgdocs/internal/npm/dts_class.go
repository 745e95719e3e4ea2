package npm

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxConstructorLines bounds the constructor overloads a class's
// signature shows.
const maxConstructorLines = 40

// bodyStart returns the index of the brace opening a statement's body (the
// one body reads from), or -1: generic arguments holding object types
// ("class Redis<…> extends Commander<{ … }> {") come before it.
func bodyStart(t string) int {
	open, _ := lastBraceGroup(t)
	return open
}

// classSignature is a class's declaration as an answer shows it: its
// header whole (type parameters and heritage, however long) and its
// constructors, own or, when it declares none, inherited from base.
func classSignature(t string, ctors []member, base string) string {
	head := strings.TrimSpace(t)
	if i := bodyStart(head); i >= 0 {
		head = strings.TrimSpace(head[:i])
	}
	head = wholeSignature(head)
	if len(ctors) == 0 {
		return head + " { … }"
	}
	var b strings.Builder
	b.WriteString(head + " {\n")
	if base != "" {
		b.WriteString("    // constructor inherited from " + base + "\n")
	}
	for i, c := range constructorsCommonFirst(ctors) {
		if i == maxConstructorLines {
			b.WriteString("    // …\n")
			break
		}
		b.WriteString("    " + strings.ReplaceAll(dedent(c.sig), "\n", "\n    ") + ";\n")
	}
	b.WriteString("    // …\n}")
	return b.String()
}

// dedent re-indents the continuation lines of a member declared over
// several lines: four spaces more than its first line, and a last line
// that closes what the first opened ("): Argv<T>") in line with it.
func dedent(sig string) string {
	lines := strings.Split(sig, "\n")
	if len(lines) == 1 {
		return sig
	}
	last := len(lines) - 1
	closer := isCloser(lines[last])
	common := -1
	for i, l := range lines[1:] {
		if strings.TrimSpace(l) == "" || closer && i+1 == last {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); common < 0 || n < common {
			common = n
		}
	}
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t")
		switch {
		case strings.TrimSpace(l) == "":
			l = ""
		case closer && i == last:
			l = strings.TrimSpace(l)
		default:
			l = "    " + l[min(common, len(l)-len(strings.TrimLeft(l, " \t"))):]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// isCloser reports a last line that closes what the first opened
// ("): Argv<T>", "}"): it lines up with the first line.
func isCloser(l string) bool {
	l = strings.TrimSpace(l)
	return l != "" && strings.ContainsRune(")}]>", rune(l[0]))
}

// constructors returns the constructor members among mems.
func constructors(mems []member) []member {
	var out []member
	for _, m := range mems {
		if m.name == "constructor" && m.kind == "method" {
			out = append(out, m)
		}
	}
	return out
}

// classBase returns the class a class declaration extends ("Base" for
// "class A<T> extends Base<T> implements I {"), or "".
func classBase(t string) string {
	head := t
	if i := bodyStart(head); i >= 0 {
		head = head[:i]
	}
	if i := strings.Index(head, " implements "); i >= 0 {
		head = head[:i]
	}
	bases := heritage(head + " {")
	if len(bases) == 0 {
		return ""
	}
	return bases[0]
}

// inheritedConstructors finds the constructors of the class base, declared
// in file or imported into it from another of the package's files, and of
// its own bases in turn (a client class extending a base client); it
// names the base as the subclass writes it.
func (s *Scanner) inheritedConstructors(file, base string) ([]member, string) {
	written := base // the name the subclass gives its base (ajv: AjvCore, declared as Ajv)
	for depth := 0; depth < maxHeritageDepth && base != ""; depth++ {
		f := s.read(file)
		if f == nil {
			return nil, ""
		}
		idx := f.declared("class", base)
		if len(idx) == 0 {
			target, remote, ok := s.importedDeclaration(file, base)
			if !ok {
				return nil, ""
			}
			file, base = target, remote
			continue
		}
		st := f.stmts[idx[0]]
		if ctors := constructors(f.membersOf(idx[0])); len(ctors) > 0 {
			return ctors, written
		}
		base = classBase(st.text)
	}
	return nil, ""
}

// addClass emits a class and its members, its signature holding its
// constructors.
func (s *Scanner) addClass(name, file string, st statement) {
	mems := parseMembers(body(st.raw))
	ctors, from := constructors(mems), ""
	if len(ctors) == 0 {
		if base := classBase(st.text); base != "" {
			ctors, from = s.inheritedConstructors(file, base)
		}
	}
	s.add(model.Symbol{Name: name, Kind: "class", Signature: classSignature(st.text, ctors, from), Doc: st.doc, File: file})
	for _, mem := range mems {
		s.add(model.Symbol{Name: name + "." + mem.name, Kind: mem.kind, Signature: mem.sig, Doc: mem.doc, File: file})
	}
	// The members of a base class the package declares are found on the
	// subclass (pg's Client.query, declared by ClientBase), as hidden
	// members: its own win.
	if base := classBase(st.text); base != "" {
		short := name[strings.LastIndexByte(name, '.')+1:]
		s.inheritLocal(name, file, "interface "+short+" extends "+base+" {}")
	}
}

// typeofDeclaration documents "const X: typeof Y" (ws's WebSocketServer:
// typeof Server, vue's computed: typeof computed$1) by what Y is: a class
// or function declared in file, or imported into it from another of the
// package's files. It returns the kind and signature, or "" when Y is
// neither.
func (s *Scanner) typeofDeclaration(file, typ, final string) (kind, sig, doc string) {
	name, ok := strings.CutPrefix(strings.TrimSpace(typ), "typeof ")
	if !ok || !typeNameRE.MatchString(name) || strings.Contains(name, ".") {
		return "", "", ""
	}
	for hop := 0; hop < 3; hop++ {
		f := s.read(file)
		if f == nil {
			return "", "", ""
		}
		if idx := f.declared("class", name); len(idx) > 0 {
			st := f.stmts[idx[0]]
			ctors, from := constructors(f.membersOf(idx[0])), ""
			if len(ctors) == 0 {
				ctors, from = s.inheritedConstructors(file, classBase(st.text))
			}
			return "class", "const " + final + ": typeof " + name + "\n\n" + classSignature(st.text, ctors, from), st.doc
		}
		if sig := typeofFunction(f.stmts, "typeof "+name, final); sig != "" {
			for _, i := range f.declared("function", name) {
				doc = f.stmts[i].doc
				break
			}
			return "function", sig, doc
		}
		ref, remote, ok := importedName(s.fileImports(file), name)
		if !ok {
			return "", "", ""
		}
		if file = s.resolve(file, ref.spec); file == "" {
			return "", "", ""
		}
		name = remote
	}
	return "", "", ""
}

// inheritLocal gives the interface owner (declared by text t in file) the
// members of the interfaces and classes it extends that the package
// declares itself (axios's AxiosInstance extends the class Axios), as
// hidden members; those it declares win.
func (s *Scanner) inheritLocal(owner, file, t string) {
	imports := s.fileImports(file)
	for _, base := range heritage(t) {
		if ref, ok := imports[base]; ok && !strings.HasPrefix(ref.spec, ".") {
			continue // another package's: inheritExternal's, for interfaces
		}
		if target, remote, ok := s.importedDeclaration(file, base); ok {
			s.inheritFrom(owner, target, remote, 1, map[string]bool{})
			continue
		}
		if !strings.Contains(base, ".") {
			s.inheritFrom(owner, file, base, 1, map[string]bool{file + "\x00" + owner[strings.LastIndexByte(owner, '.')+1:]: true})
		}
	}
}

// importedDeclaration finds where a name that file imports from another
// of the package's files (or of a package its declarations lead into) is
// declared: the file and the name there, for
// named imports and for default ones ("import Commander from
// \"./utils/Commander\"", whose file says "export default Commander").
func (s *Scanner) importedDeclaration(file, name string) (string, string, bool) {
	ref, ok := s.fileImports(file)[name]
	if !ok || ref.name == "*" {
		return "", "", false
	}
	target := s.resolve(file, ref.spec) // the package's, or a followed one's (vue's runtime-core)
	if target == "" {
		return "", "", false
	}
	if ref.name != "default" {
		return target, ref.name, true
	}
	f := s.read(target)
	if f == nil {
		return "", "", false
	}
	local := firstSet(f.exports.defaultOf, f.exports.equals)
	return target, local, local != ""
}

// instance is a constant typed by a class or interface of the package
// ("export const program: Command"), or a namespace re-exporting an
// ambient module ("export * as promises from \"node:fs/promises\"").
type instance struct {
	name, typ string
	module    bool // typ is a module: its members are typ's own, at any depth
}

// applyInstances makes the members of a constant's type found through the
// constant: "program.command" is an alias of "Command.command".
func (s *Scanner) applyInstances() {
	if len(s.instances) == 0 {
		return
	}
	byType, modules := map[string][]string{}, map[string][]string{}
	for _, in := range s.instances {
		if in.module {
			modules[in.typ] = append(modules[in.typ], in.name)
		} else {
			byType[in.typ] = append(byType[in.typ], in.name)
		}
	}
	for i := range s.out {
		sym := &s.out[i]
		dot := strings.LastIndexByte(sym.Name, '.')
		if dot <= 0 {
			continue
		}
		var aliases []string
		for _, name := range byType[sym.Name[:dot]] {
			aliases = append(aliases, name+sym.Name[dot:]) // program.command
		}
		if mod, rest, ok := strings.Cut(sym.Name, "."); ok {
			for _, name := range modules[mod] {
				aliases = append(aliases, name+"."+rest) // fs.promises.readFile
			}
		}
		for _, a := range aliases {
			if len(sym.Aliases) < 8 {
				sym.Aliases = append(sym.Aliases, a)
			}
		}
	}
}

// maxAliasLines bounds the type alias shown with a constant it types.
const maxAliasLines = 40

// typeAliasOf returns the declaration of the type alias (or interface of
// call signatures) name, declared in file or imported into it from another
// of the package's files, when it is at most maxAliasLines long: a
// constant typed by it (zustand's "const create: Create", immer's
// "const produce: IProduce") is called as it says.
func (s *Scanner) typeAliasOf(file, name string) string {
	if strings.Contains(name, ".") {
		return ""
	}
	f := s.read(file)
	if f == nil {
		return ""
	}
	if _, ok := f.exports.imports[name]; ok {
		target, remote, ok := s.importedDeclaration(file, name)
		if !ok {
			return ""
		}
		if f = s.read(target); f == nil {
			return ""
		}
		name = remote
	}
	idx := f.declared("type", name)
	if len(idx) == 0 {
		// An interface of call signatures (immer's IProduce) is one too.
		for _, i := range f.declared("interface", name) {
			if callSignatures(body(f.stmts[i].raw)) {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) == 0 {
		return ""
	}
	var lines []string // comments were removed: their lines go too
	for _, l := range strings.Split(dedent(signature0(f.stmts[idx[0]].text)), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > maxAliasLines {
		return ""
	}
	return strings.Join(lines, "\n")
}

// callSignatures reports an interface body declaring call signatures
// ("(x: T): R;" or "<T>(x: T): R;").
func callSignatures(b string) bool {
	for _, st := range splitMembers(b) {
		if t := strings.TrimSpace(st.text); strings.HasPrefix(t, "(") || strings.HasPrefix(t, "<") {
			return true
		}
	}
	return false
}
