package rust

import (
	"path"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Scanner lists the public API of a crate from its source, without
// compiling it: public items with their /// docs, inherent methods (also
// those of impls written in another module than their type), trait
// members, #[macro_export] macros wherever they are defined (listed at the
// crate root), modules declared with `mod x;` (followed into x.rs or
// x/mod.rs), items inside item-position macro invocations (tokio's
// `cfg_rt! { ... }`), and `pub use` re-exports resolved through private
// modules to the items they name. It is the fallback when docs.rs has no
// rustdoc JSON; it does not expand macros or evaluate cfg attributes.
type Scanner struct {
	Read       func(name string) ([]byte, bool)
	MaxSymbols int // default 3000
	// Extern, if set, returns the public symbols of another crate (by
	// the name the source uses, thiserror_impl), for re-exports from it.
	Extern   func(crate string) []model.Symbol
	MaxFiles int // default 1000

	files    int                  // files read
	scans    int                  // modules scanned (a file may be scanned under several names)
	lexed    map[string]lexedFile // files read, by name
	out      []model.Symbol
	root     *module
	reveal   int                       // > 0 while private modules are scanned to resolve a re-export
	revealed map[string][]model.Symbol // reveal scans, by module
	scanned  map[string]bool           // files scanned
	pending  []pendingMod              // private modules not scanned (yet)
	requests []useRequest              // `pub use` items resolved after the scan
	dropped  map[string]bool           // listed re-exports that were resolved, by symbolKey
	macros   []model.Symbol            // #[macro_export] macros, crate-root names
	hidden   []model.Symbol            // methods found in private modules only
	impls    []traitImpl               // trait impls seen: impl Trait for Type

	localMacros map[string]*macroDef // macro_rules! macros seen, by name
	expansions  int                  // macro calls expanded
}

// maxTraitImpls bounds the trait impls a Scan remembers.
const maxTraitImpls = 5000

// traitImpl is an `impl Trait for Type`, by the last segments of their
// paths.
type traitImpl struct{ trait, self string }

// maxScans bounds the module scans of one Scan: re-exports resolved
// through private modules scan some files more than once.
const maxScans = 5000

// lexedFile is a source file read and lexed once per Scan.
type lexedFile struct {
	src  string
	toks []token
}

// ScanResult is what Scan found.
type ScanResult struct {
	CrateDocs string // //! docs of the crate root
	Symbols   []model.Symbol
	Truncated bool
}

// Scan reads the crate rooted at file (usually src/lib.rs).
func (s *Scanner) Scan(file string) ScanResult {
	if s.MaxSymbols <= 0 {
		s.MaxSymbols = 3000
	}
	if s.MaxFiles <= 0 {
		s.MaxFiles = 1000
	}
	s.files, s.out, s.root, s.reveal, s.pending, s.requests, s.macros, s.hidden, s.impls = 0, nil, nil, 0, nil, nil, nil, nil, nil
	s.revealed, s.scanned, s.dropped, s.lexed, s.scans = map[string][]model.Symbol{}, map[string]bool{}, map[string]bool{}, map[string]lexedFile{}, 0
	s.localMacros, s.expansions = nil, 0
	docs := s.file(file, "", 0, nil)
	truncated := len(s.out) >= s.MaxSymbols
	s.resolveRequests(0)
	s.scanHidden()
	s.finish()
	return ScanResult{CrateDocs: docs, Symbols: s.out, Truncated: truncated || len(s.out) >= s.MaxSymbols}
}

// file scans one source file as the module prefix; it returns the file's
// inner (//!) docs.
func (s *Scanner) file(name, prefix string, depth int, parent *module) string {
	if depth > maxModuleDepth || s.scans >= maxScans {
		return ""
	}
	lf, ok := s.lexed[name]
	if !ok {
		if s.files >= s.MaxFiles {
			return ""
		}
		src, found := s.Read(name)
		if !found {
			return ""
		}
		s.files++
		lf = lexedFile{src: string(src), toks: lex(string(src))}
		s.lexed[name] = lf
	}
	s.scans++
	s.scanned[name] = true
	m := &module{s: s, file: name, src: lf.src, toks: lf.toks, prefix: prefix, depth: depth, parent: parent, private: map[string]privateMod{}, modules: map[string]privateMod{}}
	if s.root == nil {
		s.root = m
	}
	m.items(0, len(m.toks), "")
	m.resolveReexports()
	return strings.TrimSpace(strings.Join(m.inner, "\n"))
}

func (s *Scanner) add(sym model.Symbol) {
	if len(s.out) < s.MaxSymbols {
		s.out = append(s.out, sym)
	}
}

// module is one file (or inline module) being scanned.
type module struct {
	s       *Scanner
	file    string
	src     string
	toks    []token
	prefix  string
	depth   int
	parent  *module               // the enclosing module, nil at the crate root
	inner   []string              // //! lines
	private map[string]privateMod // private modules, by name
	public  map[string]bool       // public modules, by name
	modules map[string]privateMod // every module declared here, by name
	uses    []reexport            // `pub use x::...` seen before `mod x`
}

// privateMod is a private module: a file, or an inline token range.
type privateMod struct {
	file        string
	open, close int
	in          *module // whose tokens [open, close) are (an inline module)
}

type reexport struct {
	mod    string       // private module name
	glob   bool         // pub use x::*
	only   []string     // pub use x::{A, B}
	listed model.Symbol // how to list it when x is not a private module
	leaf   useLeaf      // the path, to resolve it after the scan then
}

// itemHead is what precedes an item keyword: docs, attributes, visibility.
type itemHead struct {
	docs                 []string
	public, hidden, test bool
	macroExport          bool
	procMacro            string   // the #[proc_macro...] attribute of a procedural macro's function
	derives              []string // the traits of #[derive(...)]
	pathAttr             string
	start                int // first token of the item (after attributes)
}

// items scans tokens [i, end) as a sequence of items; owner names the type
// of an impl or trait being scanned ("" at module level).
func (m *module) items(i, end int, owner string) {
	for i < end {
		var h itemHead
		i = m.head(i, end, &h)
		if i >= end {
			return
		}
		i = m.item(i, end, &h, owner)
	}
}

// head collects doc comments, attributes and visibility.
func (m *module) head(i, end int, h *itemHead) int {
	for i < end {
		t := m.toks[i]
		switch {
		case t.kind == tDocInner:
			m.inner = append(m.inner, strings.TrimPrefix(t.text, " "))
			i++
		case t.kind == tDocOuter:
			h.docs = append(h.docs, strings.TrimPrefix(t.text, " "))
			i++
		case t.kind == tPunct && t.text == "#":
			j := i + 1
			if j < end && m.toks[j].text == "!" {
				j++
			}
			if j < end && m.toks[j].text == "[" {
				close := m.matching(j, end)
				attr := m.text(j+1, close)
				switch {
				case strings.HasPrefix(attr, "doc") && strings.Contains(attr, "hidden"):
					h.hidden = true
				case attr == "cfg(test)" || strings.HasPrefix(attr, "test"):
					h.test = true
				case strings.HasPrefix(attr, "derive(") && strings.HasSuffix(attr, ")"):
					for _, d := range strings.Split(attr[len("derive("):len(attr)-1], ",") {
						if d = strings.TrimSpace(d); d != "" {
							h.derives = append(h.derives, d[strings.LastIndex(d, ":")+1:])
						}
					}
				case attr == "proc_macro" || attr == "proc_macro_attribute" || strings.HasPrefix(attr, "proc_macro_derive"):
					h.procMacro = attr
				case attr == "macro_export" || strings.HasPrefix(attr, "macro_export("):
					h.macroExport = true
				case strings.HasPrefix(attr, "path"):
					if _, v, ok := strings.Cut(attr, "="); ok {
						h.pathAttr = strings.Trim(strings.TrimSpace(v), `"`)
					}
				}
				i = close + 1
			} else {
				i = j
			}
		case t.kind == tIdent && t.text == "pub":
			h.public = true
			i++
			if i < end && m.toks[i].text == "(" {
				close := m.matching(i, end)
				h.public = false // pub(crate), pub(super), pub(in ...)
				i = close + 1
			}
		default:
			h.start = i
			return i
		}
	}
	return end
}

// text joins the source of tokens [i, j) with single spaces where the
// source had whitespace or comments, as one line: no space inside
// brackets, and no trailing comma of a list written one item a line
// (`fn f(\n    a: A,\n)` reads `fn f(a: A)`).
func (m *module) text(i, j int) string {
	var b strings.Builder
	afterOpen := false
	for k := i; k < j && k < len(m.toks); k++ {
		t := m.toks[k]
		if t.kind == tDocOuter || t.kind == tDocInner {
			continue
		}
		closing := t.kind == tPunct && (t.text == ")" || t.text == "]")
		if t.kind == tPunct && t.text == "," && k+1 < j && m.toks[k+1].space && (m.toks[k+1].text == ")" || m.toks[k+1].text == "]") {
			continue // the trailing comma of a list written one item a line
		}
		if t.space && b.Len() > 0 && !afterOpen && !closing {
			b.WriteByte(' ')
		}
		b.WriteString(m.src[t.start:t.end])
		afterOpen = t.kind == tPunct && (t.text == "(" || t.text == "[")
	}
	return b.String()
}

// matching returns the index of the bracket closing the one at i, or
// end-1 when it is unbalanced.
func (m *module) matching(i, end int) int {
	depth := 0
	for k := i; k < end; k++ {
		if m.toks[k].kind != tPunct {
			continue
		}
		switch m.toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return end - 1
}

// scanTo returns the index of the first ';' or '{' at bracket depth 0
// from i (or end).
func (m *module) scanTo(i, end int, stops string) int {
	for k := i; k < end; k++ {
		t := m.toks[k]
		if t.kind != tPunct {
			continue
		}
		if strings.Contains(stops, t.text) {
			return k
		}
		if t.text == "(" || t.text == "[" || t.text == "{" {
			k = m.matching(k, end)
		}
	}
	return end
}

// scanField returns the index of the ',' ending a field or variant that
// starts at i; commas inside brackets and generic arguments do not count.
func (m *module) scanField(i, end int) int {
	angle := 0
	for k := i; k < end; k++ {
		t := m.toks[k]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			k = m.matching(k, end)
		case "<":
			angle++
		case ">":
			if angle > 0 && !(k > 0 && !t.space && (m.toks[k-1].text == "-" || m.toks[k-1].text == "=")) {
				angle--
			}
		case ",":
			if angle == 0 {
				return k
			}
		}
	}
	return end
}

var qualifiers = map[string]bool{"const": true, "async": true, "unsafe": true, "extern": true, "default": true, "auto": true}

// item scans one item starting at i and returns the index after it.
func (m *module) item(i, end int, h *itemHead, owner string) int {
	k := i
	for k < end && (m.toks[k].kind == tIdent && qualifiers[m.toks[k].text] || m.toks[k].kind == tLiteral) {
		if m.toks[k].text == "const" && k+1 < end && m.toks[k+1].kind == tIdent && !qualifiers[m.toks[k+1].text] && m.toks[k+1].text != "fn" {
			break // `const NAME: T`, not `const fn`
		}
		k++
	}
	if k >= end {
		return end
	}
	kw := m.toks[k]
	if kw.kind != tIdent {
		if kw.text == ";" {
			return k + 1
		}
		return m.skipItem(k, end)
	}
	switch kw.text {
	case "impl":
		return m.impl(i, k, end, h)
	case "mod":
		return m.mod(k, end, h)
	case "macro_rules":
		return m.macro(k, end, h)
	case "use":
		stop := m.scanTo(k, end, ";")
		if h.public && !h.test && !h.hidden && owner == "" {
			m.use(k+1, stop, h)
		}
		return stop + 1
	case "fn", "struct", "enum", "union", "trait", "type", "const", "static":
	default:
		return m.macroItem(k, end, h, owner)
	}
	name := ""
	nameAt := k + 1
	if kw.text == "static" && nameAt < end && (m.toks[nameAt].text == "mut" || m.toks[nameAt].text == "ref") {
		nameAt++ // static mut X; lazy_static!'s static ref X
	}
	if nameAt < end && m.toks[nameAt].kind == tIdent {
		name = m.toks[nameAt].text
	}
	visible := (h.public || isTraitOwner(owner)) && !h.hidden && !h.test && name != "_"
	if visible && owner == "" && (kw.text == "struct" || kw.text == "enum" || kw.text == "union") {
		for _, d := range h.derives {
			if len(m.s.impls) < maxTraitImpls {
				m.s.impls = append(m.s.impls, traitImpl{trait: d, self: name})
			}
		}
	}
	var stop int
	switch kw.text {
	case "const", "static", "type":
		stop = m.scanTo(k, end, ";")
	default:
		stop = m.scanTo(k, end, ";{")
	}
	sig := m.text(i, stop)
	if h.public {
		sig = "pub " + sig
	}
	if stop >= end || m.toks[stop].text != "{" {
		if visible && name != "" {
			m.emit(h, kw.text, name, owner, strings.TrimSpace(sig)+";")
		}
		return stop + 1
	}
	return m.itemBody(stop, end, h, kw.text, name, owner, sig, visible)
}

// macroItem scans an item that starts with a name other than a keyword at
// k: a macro call whose items are read (cfg_if!, the crate's own
// macro_rules! expanded), or anything else, skipped. It returns the index
// after it.
func (m *module) macroItem(k, end int, h *itemHead, owner string) int {
	if h.test || h.hidden {
		return m.skipItem(k, end)
	}
	if bang := m.macroCall(k, end); bang > 0 {
		return m.macroItems(bang+1, end, owner)
	}
	if def := m.s.localMacros[m.toks[k].text]; def != nil && k+2 < end && m.toks[k+1].text == "!" && (m.toks[k+2].text == "(" || m.toks[k+2].text == "[") {
		close := m.matching(k+2, end)
		if m.expandCall(def, k+2, close, owner) {
			if close+1 < end && m.toks[close+1].text == ";" {
				close++
			}
			return close + 1
		}
	}
	return m.skipItem(k, end)
}

// itemBody handles an item with a { body }: struct, enum and union bodies
// join the signature, trait members are scanned, function bodies skipped.
func (m *module) itemBody(open, end int, h *itemHead, kw, name, owner, sig string, visible bool) int {
	close := m.matching(open, end)
	switch kw {
	case "struct", "union", "enum":
		sig += m.body(open, close, kw)
	case "trait":
		sig += " { … }"
		if visible && name != "" {
			m.emit(h, kw, name, owner, sig)
			m.items(open+1, close, traitOwner(m.prefix+name))
			return close + 1
		}
	case "fn":
		if isTraitOwner(owner) {
			sig += " { … }"
		}
		if h.procMacro != "" && owner == "" && visible {
			m.procMacro(h, name, sig)
			return close + 1
		}
	}
	if visible && name != "" {
		m.emit(h, kw, name, owner, sig)
	}
	return close + 1
}

// traitOwner marks an owner name as a trait, whose members are public
// without `pub`.
func traitOwner(name string) string { return "trait " + name }

func isTraitOwner(owner string) bool { return strings.HasPrefix(owner, "trait ") }

func (m *module) emit(h *itemHead, kw, name, owner, sig string) {
	kind := map[string]string{"fn": "function", "type": "type alias"}[kw]
	if kind == "" {
		kind = kw
	}
	full := m.prefix + name
	if owner != "" {
		kind = "method"
		full = strings.TrimPrefix(owner, "trait ") + "::" + name
	}
	m.s.add(model.Symbol{Name: full, Kind: kind, Signature: strings.TrimSpace(sig), Doc: strings.TrimSpace(strings.Join(h.docs, "\n")), File: m.file})
}

// skipItem skips an item pkgdocs does not document (extern blocks, macro
// invocations, ...).
func (m *module) skipItem(k, end int) int {
	stop := m.scanTo(k, end, ";{")
	if stop < end && m.toks[stop].text == "{" {
		return m.matching(stop, end) + 1
	}
	return stop + 1
}

// body renders a struct, union or enum body: public fields (structs) or
// all variants (enums), without docs and attributes; long bodies elide.
func (m *module) body(open, close int, kw string) string {
	var lines []string
	hidden := false
	i := open + 1
	for i < close {
		var h itemHead
		i = m.head(i, close, &h)
		if i >= close {
			break
		}
		stop := m.scanField(i, close)
		if kw == "enum" || h.public {
			vis := ""
			if h.public {
				vis = "pub "
			}
			if !h.hidden {
				lines = append(lines, "    "+vis+m.text(h.start, stop)+",")
			}
		} else {
			hidden = true
		}
		i = stop + 1
	}
	if hidden {
		lines = append(lines, "    /* private fields */")
	}
	if len(lines) > maxMembersShown {
		return " { … }"
	}
	return " {\n" + strings.Join(lines, "\n") + "\n}"
}

// impl scans an inherent impl block for public methods; trait impls are
// skipped.
func (m *module) impl(i, k, end int, h *itemHead) int {
	stop := m.scanTo(k, end, ";{")
	if stop >= end || m.toks[stop].text != "{" {
		return stop + 1
	}
	close := m.matching(stop, end)
	if h.test {
		return close + 1
	}
	self, trait := "", ""
	depth := 0
	for j := k + 1; j < stop; j++ {
		t := m.toks[j]
		switch {
		case t.text == "<":
			depth++
		case t.text == ">" && depth > 0 && !(!t.space && m.toks[j-1].text == "-"):
			depth--
		case depth == 0 && t.kind == tIdent && t.text == "for" && trait == "":
			trait, self = self, ""
		case depth == 0 && t.kind == tIdent && t.text != "where" && t.text != "dyn" && t.text != "mut":
			self = t.text
		case t.kind == tIdent && t.text == "where":
			j = stop
		}
	}
	if trait != "" { // a trait impl: its methods are listed with the trait's
		if self != "" && len(m.s.impls) < maxTraitImpls {
			m.s.impls = append(m.s.impls, traitImpl{trait: trait, self: self})
		}
		return close + 1
	}
	if self != "" {
		m.items(stop+1, close, m.prefix+self)
	}
	return close + 1
}

// mod handles `mod x;` (a file) and `mod x { ... }` (inline).
func (m *module) mod(k, end int, h *itemHead) int {
	if k+1 >= end || m.toks[k+1].kind != tIdent {
		return m.skipItem(k, end)
	}
	name := m.toks[k+1].text
	stop := m.scanTo(k, end, ";{")
	if h.test {
		if stop < end && m.toks[stop].text == "{" {
			return m.matching(stop, end) + 1
		}
		return stop + 1
	}
	h.public = h.public && !h.hidden // a #[doc(hidden)] module is scanned as a private one
	sym := model.Symbol{Name: m.prefix + name, Kind: "mod", Signature: "pub mod " + name, Doc: strings.Join(h.docs, "\n"), File: m.file}
	if h.public {
		if m.public == nil {
			m.public = map[string]bool{}
		}
		m.public[name] = true
	}
	if stop < end && m.toks[stop].text == "{" {
		close := m.matching(stop, end)
		inline := privateMod{open: stop + 1, close: close, in: m}
		m.modules[name] = inline
		if !h.public {
			m.private[name] = inline
			m.hideMod(inline, name)
			return close + 1
		}
		m.s.add(sym)
		if m.depth < maxModuleDepth {
			sub := m.inline(name + "::")
			sub.items(stop+1, close, "")
			sub.resolveReexports()
		}
		return close + 1
	}
	file := m.modFile(name, h.pathAttr)
	m.modules[name] = privateMod{file: file}
	if !h.public {
		m.private[name] = privateMod{file: file}
		m.hideMod(privateMod{file: file}, name)
		return stop + 1
	}
	sym.File = file
	at := len(m.s.out)
	m.s.add(sym)
	if docs := m.s.file(file, m.prefix+name+"::", m.depth+1, m); sym.Doc == "" && at < len(m.s.out) {
		m.s.out[at].Doc = docs
	}
	return stop + 1
}

// modFile finds the file of `mod name;` declared in m.file.
func (m *module) modFile(name, pathAttr string) string {
	dir := path.Dir(m.file)
	if pathAttr != "" {
		return path.Clean(path.Join(dir, pathAttr))
	}
	base := path.Base(m.file)
	if base != "lib.rs" && base != "main.rs" && base != "mod.rs" {
		dir = path.Join(dir, strings.TrimSuffix(base, ".rs"))
	}
	candidate := path.Join(dir, name+".rs")
	if _, ok := m.s.Read(candidate); ok {
		return candidate
	}
	return path.Join(dir, name, "mod.rs")
}

// use records a `pub use` item. A name re-exported from a private module
// of this file (`pub use x::{A, B}`, `pub use x::*`) is replaced by the
// items it names, scanned in place; any other path is listed as a
// re-export and resolved after the scan (see resolveRequests).
func (m *module) use(i, stop int, h *itemHead) {
	text := m.text(i, stop)
	var leaves []useLeaf
	expandUse(text, nil, &leaves, 0)
	for _, leaf := range leaves {
		name := leaf.rename
		if name == "" {
			name = leaf.path[len(leaf.path)-1]
		}
		listed := model.Symbol{Name: m.prefix + name, Kind: "use", Signature: "pub use " + text + ";", Doc: strings.Join(h.docs, "\n"), File: m.file}
		path := leaf.path
		if len(path) > 0 && (path[0] == "self" || path[0] == "crate" && m.parent == nil && m.prefix == "") {
			path = path[1:]
		}
		if (leaf.glob && len(path) == 1 || !leaf.glob && len(path) == 2) && leaf.rename == "" && path[0] != "crate" && path[0] != "super" {
			r := reexport{mod: path[0], listed: listed, leaf: leaf}
			if leaf.glob {
				r.glob = true
			} else {
				r.only = []string{path[1]}
			}
			if m.public[path[0]] { // public (also when a cfg variant declares it private)
				m.listUse(listed, leaf)
			} else if _, known := m.private[path[0]]; known {
				m.reexport(r)
			} else {
				m.uses = append(m.uses, r) // the module may be declared further down
			}
			continue
		}
		m.listUse(listed, leaf)
	}
}

// resolveReexports scans the private modules of `pub use` items whose
// module was declared after them.
func (m *module) resolveReexports() {
	for _, r := range m.uses {
		if _, known := m.private[r.mod]; known && !m.public[r.mod] {
			m.reexport(r)
		} else {
			m.listUse(r.listed, r.leaf)
		}
	}
	m.uses = nil
}

// reexport scans private module r.mod under this module's prefix, keeping
// the requested names (all of them for a glob).
func (m *module) reexport(r reexport) {
	pm := m.private[r.mod]
	before := len(m.s.out)
	if pm.file != "" {
		m.s.file(pm.file, m.prefix, m.depth+1, m)
	} else {
		if m.s.scans >= maxScans || m.depth >= maxModuleDepth {
			return
		}
		m.s.scans++
		sub := pm.in.inline("")
		sub.items(pm.open, pm.close, "")
		sub.resolveReexports()
	}
	if r.glob {
		return
	}
	keep := map[string]bool{}
	for _, n := range r.only {
		keep[m.prefix+n] = true
	}
	kept := m.s.out[:before]
	for _, sym := range m.s.out[before:] {
		owner := sym.Name
		if i := strings.LastIndex(owner, "::"); i >= 0 && sym.Kind == "method" {
			owner = owner[:i]
		}
		if keep[owner] {
			kept = append(kept, sym)
		}
	}
	m.s.out = kept
}
