package rust

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxReveal bounds how deeply re-export resolution nests reveal scans.
const maxReveal = 4

// useLeaf is one path of a `use` tree: `a::{b::C as D, e::*}` has the
// leaves a::b::C (renamed D) and a::e::*.
type useLeaf struct {
	path   []string // segments, "*" excluded
	rename string   // the `as` name, if any
	glob   bool     // the path ends in ::*
}

// expandUse splits a use tree's text into its leaves, prefixed by prefix.
func expandUse(text string, prefix []string, out *[]useLeaf, depth int) {
	text = strings.TrimSpace(text)
	if text == "" || depth > 8 || len(*out) > 256 {
		return
	}
	open := strings.IndexByte(text, '{')
	if open < 0 {
		leaf := useLeaf{}
		if i := strings.LastIndex(text, " as "); i >= 0 {
			leaf.rename = strings.TrimSpace(text[i+4:])
			text = text[:i]
		}
		segs := append([]string(nil), prefix...)
		for _, p := range strings.Split(text, "::") {
			if p = strings.TrimSpace(p); p != "" {
				segs = append(segs, p)
			}
		}
		if n := len(segs); n > 0 && segs[n-1] == "*" {
			leaf.glob, segs = true, segs[:n-1]
		} else if n > 1 && segs[n-1] == "self" {
			segs = segs[:n-1] // a::b::{self}
		}
		if len(segs) == 0 || leaf.rename == "_" {
			return
		}
		leaf.path = segs
		*out = append(*out, leaf)
		return
	}
	head := append([]string(nil), prefix...)
	for _, p := range strings.Split(strings.TrimSuffix(strings.TrimSpace(text[:open]), "::"), "::") {
		if p = strings.TrimSpace(p); p != "" {
			head = append(head, p)
		}
	}
	close := strings.LastIndexByte(text, '}')
	if close < open {
		close = len(text)
	}
	inner, level, start := text[open+1:close], 0, 0
	for i := 0; i <= len(inner); i++ {
		if i < len(inner) {
			switch inner[i] {
			case '{':
				level++
				continue
			case '}':
				level--
				continue
			case ',':
				if level != 0 {
					continue
				}
			default:
				continue
			}
		}
		expandUse(inner[start:i], head, out, depth+1)
		start = i + 1
	}
}

// useRequest is a `pub use` resolved after the scan: the re-exported
// item found (its path may pass through private modules) is listed under
// the re-exported name, with its members.
type useRequest struct {
	base   *module  // the module the path starts in; nil when unknown (super:: at a file's root)
	path   []string // relative to base
	abs    string   // the target's crate-relative path
	name   string   // the re-exported name (prefix included); for a glob, the prefix
	glob   bool
	listed string // symbolKey of the listed re-export, dropped once resolved
	extern bool   // the path may start with another crate's name
}

func symbolKey(s model.Symbol) string { return s.Name + "\x00" + s.Signature }

// listUse lists a re-export and asks for it to be resolved.
func (m *module) listUse(listed model.Symbol, leaf useLeaf) {
	if leaf.glob {
		listed.Name = m.prefix + "*"
	}
	m.s.add(listed)
	base, path := m, leaf.path
	switch {
	case len(path) > 0 && path[0] == "self":
		path = path[1:]
	case len(path) > 0 && path[0] == "crate":
		base, path = m.s.root, path[1:]
	}
	for len(path) > 0 && path[0] == "super" && base != nil {
		base, path = base.parent, path[1:]
	}
	if base == nil || len(path) == 0 || path[0] == "super" {
		return
	}
	p0 := leaf.path[0]
	req := useRequest{base: base, path: path, abs: base.prefix + strings.Join(path, "::"), listed: symbolKey(listed), glob: leaf.glob, extern: p0 != "crate" && p0 != "self" && p0 != "super"}
	req.name = strings.TrimSuffix(listed.Name, "*")
	m.s.requests = append(m.s.requests, req)
}

// inline returns a module for an inline `mod x { }` (or a re-scanned
// private one) of m, whose names get prefix after m's.
func (m *module) inline(prefix string) *module {
	return &module{s: m.s, file: m.file, src: m.src, toks: m.toks, prefix: m.prefix + prefix, depth: m.depth + 1, parent: m, private: map[string]privateMod{}, modules: map[string]privateMod{}}
}

// hideMod notes a private module: scanned in place while a re-export is
// being resolved, else kept for the pass over private modules (exported
// macros, impls of public types).
func (m *module) hideMod(pm privateMod, name string) {
	if m.s.reveal > 0 {
		m.scanModule(pm, name+"::")
		return
	}
	m.s.pending = append(m.s.pending, pendingMod{m: m, mod: pm, name: name})
}

// pendingMod is a private module not scanned during the public pass.
type pendingMod struct {
	m    *module
	mod  privateMod
	name string
}

// scanModule scans module pm of m under m's prefix plus prefix.
func (m *module) scanModule(pm privateMod, prefix string) {
	if m.depth >= maxModuleDepth {
		return
	}
	if pm.file != "" {
		m.s.file(pm.file, m.prefix+prefix, m.depth+1, m)
		return
	}
	if m.s.scans >= maxScans {
		return
	}
	m.s.scans++
	sub := pm.in.inline(prefix) // the tokens' module: m itself, or a macro expansion in it
	sub.items(pm.open, pm.close, "")
	sub.resolveReexports()
}

// revealScan scans module name of m, private modules included, and
// returns the symbols found (crate-relative names) without keeping them.
func (s *Scanner) revealScan(m *module, name string) []model.Symbol {
	pm, ok := m.modules[name]
	if !ok || s.reveal >= maxReveal {
		return nil
	}
	key := m.file + "\x00" + m.prefix + name
	if got, ok := s.revealed[key]; ok {
		return got
	}
	s.revealed[key] = nil // a cycle finds nothing
	before, reqs := len(s.out), len(s.requests)
	s.reveal++
	m.scanModule(pm, name+"::")
	s.resolveRequests(reqs)
	s.reveal--
	got := append([]model.Symbol(nil), s.out[before:]...)
	s.out = s.out[:before]
	s.revealed[key] = got
	return got
}

// resolveRequests resolves the re-exports asked for from index from on,
// against the symbols scanned so far, and forgets them.
func (s *Scanner) resolveRequests(from int) {
	for round := 0; round < 2 && len(s.requests) > from; round++ {
		byName := make(map[string]int, len(s.out))
		for i, sym := range s.out {
			if _, ok := byName[nsKey(sym)]; !ok && sym.Kind != "use" {
				byName[nsKey(sym)] = i
			}
		}
		var left []useRequest
		for i := from; i < len(s.requests); i++ {
			if !s.resolve(s.requests[i], byName) {
				left = append(left, s.requests[i])
			}
		}
		s.requests = append(s.requests[:from], left...)
	}
	s.requests = s.requests[:from]
}

// resolve lists a re-export's target under its re-exported name: as an
// alias of the target when the target is listed already, else as a copy
// of the item (and its members) found by scanning the modules its path
// passes through.
// nsKey is a symbol's name in its namespace: macros ("!"+name) apart from
// types, values and modules, as Rust keeps them (serde's Serialize trait
// and derive macro).
func nsKey(sym model.Symbol) string {
	if strings.HasSuffix(sym.Kind, "macro") {
		return "!" + sym.Name
	}
	return sym.Name
}

// byName indexes (by nsKey) the symbols of s.out that are not
// re-exports; symbols
// resolve adds are added to it.
func (s *Scanner) resolve(r useRequest, byName map[string]int) bool {
	if !r.glob {
		i, ok := byName[r.abs]
		if !ok {
			i, ok = byName["!"+r.abs]
		}
		if ok {
			if r.name != r.abs && !contains(s.out[i].Aliases, r.name) {
				s.out[i].Aliases = append(s.out[i].Aliases, r.name)
			}
			s.dropped[r.listed] = true
			return true
		}
	}
	var found []model.Symbol
	if _, local := r.base.modules[r.path[0]]; !local && r.extern && s.Extern != nil {
		found = s.matches(s.Extern(r.path[0]), strings.Join(r.path[1:], "::"), r, byName)
	} else {
		found = s.matches(s.revealScan(r.base, r.path[0]), r.abs, r, byName)
	}
	if len(found) == 0 {
		i, ok := byName[r.name]
		if !ok {
			i, ok = byName["!"+r.name]
		}
		if ok && !r.glob && s.out[i].Kind != "mod" {
			s.dropped[r.listed] = true // another cfg variant's re-export under the same name was resolved
			return true
		}
		return false
	}
	for _, sym := range found {
		if len(s.out) < s.MaxSymbols {
			byName[nsKey(sym)] = len(s.out)
		}
		s.add(sym)
	}
	s.dropped[r.listed] = true
	return true
}

// matches returns the symbols of syms a re-export names, renamed as
// re-exported: the item at path abs and its methods, or for a glob the
// items one level below abs ("" for a crate's root) and their methods.
func (s *Scanner) matches(syms []model.Symbol, abs string, r useRequest, byName map[string]int) []model.Symbol {
	var found []model.Symbol
	for _, sym := range syms {
		var rest string // the part of the name below abs
		switch {
		case abs == "" && r.glob:
			rest = sym.Name
		case sym.Name == abs:
		case strings.HasPrefix(sym.Name, abs+"::"):
			rest = sym.Name[len(abs)+2:]
		default:
			continue
		}
		depth := strings.Count(rest, "::")
		if r.glob {
			if rest == "" || depth > 1 || depth == 1 && sym.Kind != "method" {
				continue
			}
			sym.Name = r.name + rest
		} else {
			if rest != "" && (depth > 0 || sym.Kind != "method") {
				continue
			}
			sym.Name = r.name
			if rest != "" {
				sym.Name += "::" + rest
			}
		}
		if _, exists := byName[nsKey(sym)]; !exists && sym.Kind != "use" && sym.Kind != "mod" {
			found = append(found, sym)
		}
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// addMacro lists an exported macro at the crate root, once.
func (s *Scanner) addMacro(sym model.Symbol) {
	for _, m := range s.macros {
		if m.Name == sym.Name {
			return
		}
	}
	s.macros = append(s.macros, sym)
}

// scanHidden scans the private modules the public pass did not reach, for
// what is public from anywhere: exported macros and the inherent methods
// of public types.
func (s *Scanner) scanHidden() {
	for i := 0; i < len(s.pending); i++ {
		p := s.pending[i]
		if p.mod.file != "" && s.scanned[p.mod.file] {
			continue
		}
		before := len(s.out)
		s.reveal++
		p.m.scanModule(p.mod, p.name+"::")
		s.resolveRequests(len(s.requests))
		s.reveal--
		for _, sym := range s.out[before:] {
			if sym.Kind == "method" {
				s.hidden = append(s.hidden, sym)
			}
		}
		s.out = s.out[:before]
	}
}

// finish drops resolved re-exports, moves methods of impls written in
// another module than their type onto the type, and adds the macros.
func (s *Scanner) finish() {
	types := map[string][]string{} // last segment -> type paths
	names := map[string]bool{}
	kept := s.out[:0]
	listed := map[string]bool{}
	for _, sym := range s.out {
		if sym.Kind == "use" && s.dropped[symbolKey(sym)] {
			continue
		}
		if k := sym.Kind + " " + sym.Name; listed[k] && sym.Kind != "use" {
			continue // another cfg variant of an item (Rust has no overloads)
		} else {
			listed[k] = true
		}
		kept = append(kept, sym)
		names[sym.Name] = true
		switch sym.Kind {
		case "struct", "enum", "union", "type alias", "trait":
			last := sym.Name[strings.LastIndex(sym.Name, ":")+1:]
			types[last] = append(types[last], sym.Name)
		}
	}
	s.out = kept
	relocate := func(sym model.Symbol) (model.Symbol, bool) {
		i := strings.LastIndex(sym.Name, "::")
		owner := sym.Name[:i]
		if names[owner] {
			return sym, true
		}
		last := owner[strings.LastIndex(owner, ":")+1:]
		if t := types[last]; len(t) == 1 {
			sym.Name = t[0] + sym.Name[i:]
			return sym, true
		}
		return sym, false
	}
	for i, sym := range s.out {
		if sym.Kind != "method" {
			continue
		}
		if moved, ok := relocate(sym); ok && moved.Name != sym.Name && !names[moved.Name] {
			s.out[i] = moved
			names[moved.Name] = true
		}
	}
	for _, sym := range s.hidden {
		if moved, ok := relocate(sym); ok && !names[moved.Name] {
			s.add(moved)
			names[moved.Name] = true
		}
	}
	s.implementedTraits(types)
	for _, m := range s.macros {
		s.add(m)
	}
	s.traitMethods(types, names) // last: the first left out when there are too many symbols
}

// implementedTraits ends the docs of each of the crate's types with the
// traits the crate implements for it, as rustdoc lists them.
func (s *Scanner) implementedTraits(types map[string][]string) {
	traits := map[string][]string{} // type path -> trait names
	seen := map[traitImpl]bool{}
	for _, im := range s.impls {
		if self := types[im.self]; len(self) == 1 && !seen[im] && len(traits[self[0]]) < 24 {
			seen[im] = true
			traits[self[0]] = append(traits[self[0]], im.trait)
		}
	}
	for i, sym := range s.out {
		if t := traits[sym.Name]; len(t) > 0 && sym.Kind != "method" && sym.Kind != "trait method" {
			s.out[i].Doc = strings.TrimSpace(sym.Doc + "\n\n*Traits implemented in this crate: " + strings.Join(t, ", ") + ".*")
			delete(traits, sym.Name)
		}
	}
}

// traitMethods lists the methods a crate's type gets from an impl of one
// of the crate's traits (BytesMut::put_slice from `impl BufMut for
// BytesMut`), found by name but not listed in the API or among the type's
// own methods.
func (s *Scanner) traitMethods(types map[string][]string, names map[string]bool) {
	methods := map[string][]model.Symbol{} // trait path -> its methods
	for _, sym := range s.out {
		if i := strings.LastIndex(sym.Name, "::"); i > 0 && sym.Kind == "method" {
			methods[sym.Name[:i]] = append(methods[sym.Name[:i]], sym)
		}
	}
	seen := map[traitImpl]bool{}
	for _, im := range s.impls {
		if seen[im] {
			continue
		}
		seen[im] = true
		self, trait := types[im.self], types[im.trait]
		if len(self) != 1 || len(trait) != 1 {
			continue
		}
		for _, m := range methods[trait[0]] {
			name := self[0] + m.Name[len(trait[0]):]
			if names[name] {
				continue // an inherent method of the same name comes first
			}
			names[name] = true
			m.Name, m.Kind, m.Hidden = name, "trait method", true
			m.Doc = strings.TrimSpace(m.Doc + "\n\n*From the trait " + trait[0] + " (impl " + im.trait + " for " + im.self + ").*")
			s.add(m)
		}
	}
}
