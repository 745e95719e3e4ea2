package npm

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

var (
	declRE      = regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|const|let|var|enum|namespace|module|const\s+enum)\s+([A-Za-z_$][\w$]*)`)
	reexportRE  = regexp.MustCompile(`^export\s+(type\s+)?(\*(?:\s+as\s+([A-Za-z_$][\w$]*))?|\{([^}]*)\})\s+from\s+['"]([^'"]+)['"]`)
	localExpRE  = regexp.MustCompile(`^export\s+(?:type\s+)?\{([^}]*)\}\s*;?$`)
	defaultRE   = regexp.MustCompile(`^export\s+(?:default|=)\s+([A-Za-z_$][\w$]*)\s*;?$`)
	requireRE   = regexp.MustCompile(`^(export\s+)?import\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)`)
	importRE    = regexp.MustCompile(`^import\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\*\s+as\s+([A-Za-z_$][\w$]*)|\{([^}]*)\})?\s*from\s+['"]([^'"]+)['"]`)
	ambientRE   = regexp.MustCompile(`^(?:export\s+)?declare\s+module\s+['"]([^'"]+)['"]\s*\{`)
	globalRE    = regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?global\s*\{`)
	asNamespace = regexp.MustCompile(`^export\s+as\s+namespace\s+`)
	referenceRE = regexp.MustCompile(`(?m)^\s*///\s*<reference\s+path\s*=\s*["']([^"']+)["']`)
	typeRefRE   = regexp.MustCompile(`^(?:typeof\s+)?(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\s*(?:<.*)?;?$`)
)

// Scanner extracts exported declarations from .d.ts files, following
// re-exports, imports and triple-slash references between files of the
// same package. It understands "export =" of a namespace, a function or
// class merged with a namespace, or a value typed by an interface (whose
// members, including those added by module augmentation, become the
// package's functions); ambient modules ("declare module \"fs\"", whose
// members are named "fs.readFile"); "declare global"; overloads (one
// symbol, one signature line each) and class members ("Class.member").
type Scanner struct {
	// Read returns a file of the package; paths are relative to its root.
	Read func(name string) ([]byte, bool)
	// DefaultName names what "export =" exports when it is a function or
	// class merged with a namespace (express: "express", "express.json");
	// "" keeps the declaration's own name.
	DefaultName string
	// Self resolves a non-relative specifier that names the package itself
	// ("zustand/vanilla" inside zustand) to a declaration file; nil or ""
	// means another package.
	Self func(spec string) string
	// External resolves a specifier naming another package, imported from
	// file from, to a declaration file Read can open; nil or "" means the
	// other package is not available. Interfaces that extend an interface
	// of another package get its members (and those it inherits).
	External   func(from, spec string) string
	MaxSymbols int // default 5000
	// parsedBefore, when set, holds files parsed by earlier scans of the
	// same files, and receives those this one parses.
	parsedBefore map[string]*dtsFile
	MaxFiles     int // default 300

	visited   map[string]bool
	files     int // scans so far, bounded by 20*MaxFiles
	hidden    int // hidden symbols so far, bounded by 4*MaxSymbols
	out       []model.Symbol
	index     map[string]int       // symbol name+kind -> position in out
	overloads map[int][]string     // the signatures of symbols declared more than once, by position in out
	instances []instance           // constants typed by a class or interface
	ifaces    map[string][]member  // interface members, merged across declarations
	promote   []promotion          // values typed by an interface, exported by "export ="
	promoted  map[string]bool      // interfaces whose members became functions
	parsed    map[string]*dtsFile  // parsed files by path
	readLog   map[string]struct{}  // every file read, for fixture trimming
	modules   map[string]bool      // ambient module names already emitted
	ambients  map[string]*ambientM // ambient module bodies by name, for non-relative re-exports
}

// ambientM is the body of one ambient module declaration.
type ambientM struct {
	file string
	body string
}

// promotion records "declare const _: _.LoDashStatic; export = _": the
// members of the interface are the module's exports.
type promotion struct {
	iface  string
	prefix string
	file   string
	local  string // the value's name ("_")
}

// scope is where statements are being read: which names they export
// (only, renamed), under what prefix, and whether every declaration is
// implicitly exported (ambient modules and namespaces, global scripts).
type scope struct {
	file    string
	only    map[string]string // exported name -> final name; nil means all
	prefix  string
	ambient bool
}

// Scan returns the symbols exported by entry (a path relative to the
// package root).
func (s *Scanner) Scan(entry string) []model.Symbol {
	if s.MaxSymbols == 0 {
		s.MaxSymbols = 5000
	}
	if s.MaxFiles == 0 {
		s.MaxFiles = 300
	}
	s.visited, s.index, s.ifaces = map[string]bool{}, map[string]int{}, map[string][]member{}
	s.overloads, s.instances = map[int][]string{}, nil
	s.promoted, s.parsed, s.modules = map[string]bool{}, map[string]*dtsFile{}, map[string]bool{}
	s.ambients, s.readLog = map[string]*ambientM{}, map[string]struct{}{}
	s.out, s.hidden, s.files = nil, 0, 0
	s.scanFile(path.Clean(entry), nil, "")
	s.applyPromotions()
	s.applyInstances()
	for i, sigs := range s.overloads {
		s.out[i].Signature = commonFirst(sigs)
	}
	out := s.out[:0:0]
	for _, sym := range s.out {
		if sym.Kind == "interface" && s.promoted[sym.Name[strings.LastIndexByte(sym.Name, '.')+1:]] {
			continue // its members are listed as functions
		}
		out = append(out, sym)
	}
	return out
}

// Files returns the files the last Scan read.
func (s *Scanner) Files() []string {
	var out []string
	for f := range s.readLog {
		out = append(out, f)
	}
	return out
}

// filterKey identifies an export filter.
func filterKey(only map[string]string) string {
	if only == nil {
		return "*"
	}
	keys := make([]string, 0, len(only))
	for k, v := range only {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func (s *Scanner) full() bool { return len(s.out)-s.hidden >= s.MaxSymbols }

// read parses a file once.
func (s *Scanner) read(file string) *dtsFile {
	if f, ok := s.parsed[file]; ok {
		return f
	}
	if len(s.parsed) >= s.MaxFiles {
		return nil
	}
	f := s.parsedBefore[file]
	if f == nil {
		src, ok := s.Read(file)
		if !ok {
			return nil
		}
		f = parseDTS(file, string(src))
		if s.parsedBefore != nil {
			s.parsedBefore[file] = f
		}
	}
	s.readLog[file] = struct{}{}
	s.parsed[file] = f
	return f
}

// scanFile emits the symbols file exports. only, when non-nil, limits and
// renames them (export {a as b} from); prefix qualifies them (export * as ns).
func (s *Scanner) scanFile(file string, only map[string]string, prefix string) {
	key := file + "\x00" + prefix + "\x00" + filterKey(only)
	if s.visited[key] || s.full() || s.files >= 20*s.MaxFiles {
		return
	}
	s.visited[key] = true
	s.files++
	f := s.read(file)
	if f == nil {
		return
	}
	s.statements(f, f.stmts, scope{file: file, only: only, prefix: prefix, ambient: !f.hasExports})
	// Referenced files declare globals, ambient modules and augmentations:
	// after the file's own exports, which matter more.
	for _, ref := range f.references {
		if target := path.Join(path.Dir(file), ref); target != file {
			s.scanFile(target, nil, "")
		}
	}
}

// statements emits what a list of statements exports within sc.
func (s *Scanner) statements(f *dtsFile, stmts []statement, sc scope) {
	ex := f.exportsOfStmts(stmts)
	for _, st := range stmts {
		if s.full() {
			return
		}
		t := st.text
		switch {
		case reexportRE.MatchString(t):
			s.reexport(sc, st, reexportRE.FindStringSubmatch(t))
		case requireRE.MatchString(t):
			m := requireRE.FindStringSubmatch(t)
			if as, ok := ex.names[m[2]]; ok {
				if as, ok = rename(sc.only, as); ok {
					if target := s.resolve(sc.file, m[3]); target != "" {
						s.scanFile(target, map[string]string{"=": as}, sc.prefix)
					}
				}
			}
		case ambientRE.MatchString(t):
			s.ambientModule(sc, ambientRE.FindStringSubmatch(t)[1], st)
		case globalRE.MatchString(t):
			if sc.only == nil {
				s.statements(f, splitStatements(body(st.raw)), scope{file: sc.file, ambient: true})
			}
		case localExpRE.MatchString(t):
			s.exportImported(sc, ex, s.fileImports(sc.file), localExpRE.FindStringSubmatch(t)[1])
		default:
			s.declaration(f, st, sc, ex)
		}
	}
}

// exportImported follows "export { a, b as c }" of names the file imported
// from another of the package's files; inside a namespace the names are
// those the file imports (fileImports), as SDK clients export their
// resources ("namespace Anthropic { export { Messages as Messages } }").
func (s *Scanner) exportImported(sc scope, ex exports, fileImports map[string]importRef, list string) {
	byTarget := map[string]map[string]string{}
	var order []string
	for local, as := range parseSpecifiers(list) {
		imp, ok := ex.imports[local]
		fromFile := false
		if !ok {
			if imp, ok = fileImports[local]; !ok {
				continue
			}
			fromFile = true
		}
		final, ok := rename(sc.only, as)
		if !ok {
			continue
		}
		target := s.resolve(sc.file, imp.spec)
		if target == "" {
			continue
		}
		if imp.name == "*" {
			if tf := s.read(target); fromFile && tf != nil && tf.exports.equals != "" {
				continue // import x = require() of an export= module: the require case's
			}
			s.add(model.Symbol{Name: sc.prefix + final, Kind: "namespace", Signature: "namespace " + final, File: sc.file})
			s.scanFile(target, nil, sc.prefix+final+".")
			continue
		}
		if byTarget[target] == nil {
			byTarget[target] = map[string]string{}
			order = append(order, target)
		}
		byTarget[target][imp.name] = final
	}
	sort.Strings(order)
	for _, target := range order {
		s.scanFile(target, byTarget[target], sc.prefix)
	}
}

// declaration emits one declaration if it is exported in sc.
func (s *Scanner) declaration(f *dtsFile, st statement, sc scope, ex exports) {
	t := st.text
	m := declRE.FindStringSubmatch(t)
	if m == nil {
		return
	}
	kind, local := declKind(m[1]), m[2]
	if kind == "interface" {
		s.ifaces[local] = append(s.ifaces[local], parseMembers(body(st.raw))...)
	}
	if kind == "namespace" && local == ex.equals && sc.only != nil {
		// import { Argv } from "./index.js", whose index.d.ts is
		// "export = yargs": the names are the namespace's members.
		if inner := withoutWhole(sc.only); len(inner) > 0 {
			s.statements(f, splitStatements(body(st.raw)), scope{file: sc.file, only: inner, prefix: sc.prefix, ambient: true})
		}
	}
	as, ok := ex.names[local]
	if sc.ambient || (!ok && !ex.hasExports) {
		as, ok = local, true
	}
	if ex.equals != "" && local == ex.equals {
		as, ok = local, true
	}
	if !ok {
		return
	}
	final, ok := rename(sc.only, as)
	if !ok && local == ex.equals {
		final, ok = rename(sc.only, "=")
	}
	if !ok && local == ex.defaultOf {
		final, ok = rename(sc.only, "default")
	}
	if !ok {
		return
	}
	if local == ex.equals && ex.merged[local] && s.DefaultName != "" && sc.only == nil && sc.prefix == "" {
		final = s.DefaultName
	}
	name := sc.prefix + final
	switch kind {
	case "namespace":
		inner := name + "."
		if local == ex.equals && !ex.merged[local] {
			inner = sc.prefix // export = a pure namespace: its members are the module
		} else {
			s.add(model.Symbol{Name: name, Kind: kind, Signature: header(t), Doc: st.doc, File: sc.file})
		}
		s.statements(f, splitStatements(body(st.raw)), scope{file: sc.file, prefix: inner, ambient: true})
		return
	case "const":
		if s.constant(f, st, sc, local == ex.equals, local, final, name) {
			return
		}
	}
	switch kind {
	case "class":
		// The members follow, one symbol each: the class shows its header
		// and constructors.
		s.addClass(name, sc.file, st)
	case "interface":
		s.addInterface(f, st, sc, name)
	case "function":
		s.add(model.Symbol{Name: name, Kind: kind, Signature: wholeSignature(t), Doc: st.doc, File: sc.file})
	default:
		s.add(model.Symbol{Name: name, Kind: kind, Signature: signature(t), Doc: st.doc, File: sc.file})
	}
}

// addInterface emits an exported interface, its members (hidden, found by
// name) and the members it inherits.
func (s *Scanner) addInterface(f *dtsFile, st statement, sc scope, name string) {
	t := st.text
	s.add(model.Symbol{Name: name, Kind: "interface", Signature: signature(t), Doc: st.doc, File: sc.file})
	// Members are found by name (Moment.format), not listed.
	for _, mem := range parseMembers(body(st.raw)) {
		sig := mem.sig
		if alias := s.memberAlias(f, sc.file, mem); alias != "" {
			sig += "\n" + alias // get: RouteShorthandMethod<…>, and its call forms
		}
		s.add(model.Symbol{Name: name + "." + mem.name, Kind: mem.kind, Signature: sig, Doc: mem.doc, File: sc.file, Hidden: true})
	}
	s.inheritLocal(name, sc.file, t)
	if s.External != nil {
		s.inheritExternal(name, sc.file, t)
	}
}

// constant emits a constant documented by what its type is, reporting
// whether it did; otherwise the caller emits it as declared. isEquals is
// set for the value "export =" exports.
func (s *Scanner) constant(f *dtsFile, st statement, sc scope, isEquals bool, local, final, name string) bool {
	t := st.text
	if isEquals {
		if tm := typeRefRE.FindStringSubmatch(typeOf(t)); tm != nil {
			s.promote = append(s.promote, promotion{iface: tm[1], prefix: sc.prefix, file: sc.file, local: local})
		}
	}
	if sig := typeofFunction(f.stmts, typeOf(t), final); sig != "" {
		// const glob: typeof glob_ & {...}: callable as glob_ is.
		s.add(model.Symbol{Name: name, Kind: "function", Signature: sig, Doc: st.doc, File: sc.file})
		return true
	}
	if k, sig, doc := s.typeofDeclaration(sc.file, typeOf(t), final); k != "" {
		s.add(model.Symbol{Name: name, Kind: k, Signature: sig, Doc: firstSet(st.doc, doc), File: sc.file})
		return true
	}
	typ := typeName(typeOf(t))
	if !typeNameRE.MatchString(typ) {
		return false
	}
	// const program: Command: program.command is Command.command;
	// var process: NodeJS.Process: process.env is NodeJS.Process.env.
	s.instances = append(s.instances, instance{name: name, typ: sc.prefix + typ})
	if alias := s.typeAliasOf(sc.file, typ); alias != "" {
		// const create: Create, with type Create = { <T>(…): … }
		s.add(model.Symbol{Name: name, Kind: "const", Signature: signature(t) + "\n\n" + alias, Doc: st.doc, File: sc.file})
		return true
	}
	return false
}

// ambientModule reads "declare module \"x\" { ... }": a relative name
// augments one of the package's modules (its declarations join the export
// = namespace: interfaces merge), any other name declares a module whose
// members are named "x.member" ("node:" prefixes dropped).
func (s *Scanner) ambientModule(sc scope, name string, st statement) {
	if sc.only != nil {
		return
	}
	b := body(st.raw)
	stmts := splitStatements(b)
	if strings.HasPrefix(name, ".") {
		f := &dtsFile{file: sc.file}
		s.statements(f, stmts, scope{file: sc.file, ambient: true})
		return
	}
	short := strings.TrimPrefix(name, "node:")
	s.ambients[name] = &ambientM{file: sc.file, body: b}
	if onlyReexports(stmts) && !s.modules[short] {
		// declare module "fs" { export * from "node:fs" }: the same module
		// under another name, emitted when that one is.
		return
	}
	if !s.modules[short] {
		s.modules[short] = true
		s.add(model.Symbol{Name: short, Kind: "module", Signature: `declare module "` + name + `"`, Doc: st.doc, File: sc.file})
	}
	// A module declared again (mongoose's types/models.d.ts adds Model
	// to "declare module 'mongoose'") merges with the first declaration.
	s.statements(&dtsFile{file: sc.file}, stmts, scope{file: sc.file, prefix: short + ".", ambient: true})
}

func onlyReexports(stmts []statement) bool {
	for _, st := range stmts {
		if !reexportRE.MatchString(st.text) {
			return false
		}
	}
	return true
}

// applyPromotions turns the members of interfaces behind "export =" values
// into functions and constants of the module.
func (s *Scanner) applyPromotions() {
	for _, p := range s.promote {
		mems := s.ifaces[p.iface]
		if len(mems) == 0 {
			continue
		}
		s.promoted[p.iface] = true
		for _, m := range mems {
			if s.full() {
				return
			}
			kind := "const"
			if m.kind == "method" {
				kind = "function"
			}
			// _.get: the name the declarations give the module's value.
			s.add(model.Symbol{Name: p.prefix + m.name, Kind: kind, Signature: m.sig, Doc: m.doc, File: p.file, Aliases: []string{p.prefix + p.local + "." + m.name}})
		}
	}
}

// add appends a symbol, merging overloads (same name, a callable kind) into
// one symbol with one signature per line, and dropping repeated
// declarations of the same name and kind (interface merging).
func (s *Scanner) add(sym model.Symbol) {
	key := sym.Kind + " " + sym.Name
	if sym.Hidden && s.hidden >= 4*s.MaxSymbols {
		return
	}
	if i, ok := s.index[key]; ok {
		prev := &s.out[i]
		if callable(sym.Kind) && len(s.overloads[i]) < 4*maxOverloadLines {
			if s.overloads[i] == nil {
				s.overloads[i] = []string{prev.Signature}
			}
			if !slices.Contains(s.overloads[i], sym.Signature) {
				s.overloads[i] = append(s.overloads[i], sym.Signature)
			}
		}
		if prev.Doc == "" {
			prev.Doc = overloadDoc(sym)
		}
		return
	}
	s.index[key] = len(s.out)
	s.out = append(s.out, sym)
	if sym.Hidden {
		s.hidden++
	}
}

// overloadDoc is the doc a later declaration of a symbol gives it when the
// first had none: a deprecation that covers only that form (rxjs's map
// with a thisArg) says which form, not that the symbol is deprecated.
func overloadDoc(sym model.Symbol) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(sym.Doc), "@deprecated")
	if !ok || !callable(sym.Kind) {
		return sym.Doc
	}
	first, _, _ := strings.Cut(strings.TrimSpace(sym.Signature), "\n")
	return "The form `" + strings.ReplaceAll(first, "`", "'") + "` is deprecated: " + strings.TrimSpace(rest)
}

func callable(kind string) bool { return kind == "function" || kind == "method" }

// withoutWhole returns an export filter without the names of a module's
// whole export ("=" and "default").
func withoutWhole(only map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range only {
		if k != "=" && k != "default" {
			out[k] = v
		}
	}
	return out
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
func (s *Scanner) reexport(sc scope, st statement, m []string) {
	target := s.resolve(sc.file, m[5])
	if target == "" && m[3] != "" && sc.only == nil && !strings.HasPrefix(m[5], ".") {
		// export * as promises from "node:fs/promises" in an ambient
		// module: fs.promises.readFile is fs/promises.readFile.
		s.instances = append(s.instances, instance{name: sc.prefix + m[3], typ: strings.TrimPrefix(m[5], "node:"), module: true})
	}
	if target == "" {
		if amb, ok := s.ambients[m[5]]; ok && m[3] == "" && m[4] == "" {
			// export * from "node:fs" inside another ambient module
			s.statements(&dtsFile{file: amb.file}, splitStatements(amb.body), scope{file: amb.file, only: sc.only, prefix: sc.prefix, ambient: true})
		}
		return
	}
	switch {
	case m[4] != "":
		sel := parseSpecifiers(m[4])
		if sc.only != nil {
			sel = restrict(sel, sc.only)
		}
		s.scanFile(target, sel, sc.prefix)
	case m[3] != "":
		name, ok := rename(sc.only, m[3])
		if !ok {
			return
		}
		s.add(model.Symbol{Name: sc.prefix + name, Kind: "namespace", Signature: st.text, Doc: st.doc, File: sc.file})
		s.scanFile(target, nil, sc.prefix+name+".")
	default:
		s.scanFile(target, sc.only, sc.prefix)
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

// resolve maps a module specifier to one of the package's declaration
// files, or "".
func (s *Scanner) resolve(from, spec string) string {
	if strings.HasPrefix(spec, ".") {
		return resolveDTS(from, spec, s.Read)
	}
	if s.Self != nil {
		if t := s.Self(spec); t != "" {
			return t
		}
	}
	if s.External != nil {
		return s.External(from, spec)
	}
	return ""
}

// resolveDTS maps a relative module specifier to a declaration file: a
// .js, .mjs, .cjs, .ts, .mts, .cts, .jsx or .tsx name to its declaration
// file, an extensionless name to name.d.ts (and its variants), a directory
// to its index.
func resolveDTS(from, spec string, read func(string) ([]byte, bool)) string {
	if !strings.HasPrefix(spec, ".") {
		return "" // another package
	}
	base := path.Join(path.Dir(from), spec)
	var cands []string
	for _, ext := range []struct{ src, dts string }{
		{".d.ts", ".d.ts"}, {".d.cts", ".d.cts"}, {".d.mts", ".d.mts"},
		{".js", ".d.ts"}, {".jsx", ".d.ts"}, {".cjs", ".d.cts"}, {".mjs", ".d.mts"},
		{".ts", ".d.ts"}, {".tsx", ".d.ts"}, {".cts", ".d.cts"}, {".mts", ".d.mts"},
	} {
		if strings.HasSuffix(base, ext.src) {
			stem := strings.TrimSuffix(base, ext.src)
			cands = append(cands, stem+ext.dts, stem+".d.ts")
			break
		}
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
	return elide(signature0(t), maxBodyLines)
}

// Lines a signature is shown in: a declaration with a body (interface,
// type, enum) is elided past maxBodyLines; a function's or a class
// header's generics and parameters are shown whole up to maxWholeLines
// (vue's defineComponent, mongoose's Schema<…>).
const (
	maxBodyLines  = 30
	maxWholeLines = 200
)

// wholeSignature is signature for declarations shown whole: functions and
// class headers.
func wholeSignature(t string) string {
	return elide(dropBlankLines(dedent(signature0(t))), maxWholeLines)
}

// dropBlankLines removes the lines comments left empty.
func dropBlankLines(t string) string {
	if !strings.Contains(t, "\n\n") && !strings.Contains(t, "\n \n") {
		return t
	}
	lines := strings.Split(t, "\n")
	out := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// signature0 is signature without elision.
func signature0(t string) string {
	t = strings.TrimSuffix(strings.TrimSpace(t), ";")
	for _, kw := range []string{"export ", "default ", "declare "} {
		t = strings.TrimPrefix(t, kw)
	}
	return t
}

// elide keeps at most limit lines of t, with its last line.
func elide(t string, limit int) string {
	lines := strings.Split(t, "\n")
	if len(lines) > limit {
		lines = append(lines[:limit-1], "  // …", lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}

// header is a namespace's or module's first line, its body elided.
func header(t string) string {
	if i := bodyStart(t); i >= 0 {
		return wholeSignature(strings.TrimSpace(t[:i])) + " { … }"
	}
	return signature(t)
}

// typeofFunction returns the signatures of the local function a
// "typeof f" (or "typeof f & {...}") type names, renamed to name; "" if
// the type is not of that form.
func typeofFunction(stmts []statement, typ, name string) string {
	fn, ok := strings.CutPrefix(typ, "typeof ")
	if !ok {
		return ""
	}
	fn = strings.TrimSpace(fn)
	if i := strings.IndexAny(fn, " &|;<\n"); i >= 0 {
		fn = fn[:i]
	}
	var sigs []string
	for _, st := range stmts {
		if m := declRE.FindStringSubmatch(st.text); m != nil && m[2] == fn && declKind(m[1]) == "function" {
			sig := wholeSignature(st.text)
			sigs = append(sigs, strings.Replace(sig, "function "+fn, "function "+name, 1))
		}
	}
	return strings.Join(sigs, "\n")
}

// typeName drops a type reference's arguments: "CreateAppFunction<Element>"
// names CreateAppFunction.
func typeName(typ string) string {
	if i := strings.IndexByte(typ, '<'); i > 0 && strings.HasSuffix(typ, ">") {
		return strings.TrimSpace(typ[:i])
	}
	return typ
}

// typeOf returns the declared type of "declare const x: T".
func typeOf(t string) string {
	i := strings.IndexByte(t, ':')
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[i+1:]), ";"))
}
