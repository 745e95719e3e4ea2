package pypi

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxInherited bounds the inherited members added to a distribution's
// classes, and maxInheritDepth how far up a class hierarchy they are read.
const (
	maxInherited    = 4000
	maxInheritDepth = 24
)

// placed is a definition emitted under the path users write.
type placed struct {
	to   target
	path string
}

// symbols lists a distribution's API by the paths users write: every
// definition a public module exports (by its own definitions, imports in
// a package's __init__, star imports, lazy imports or __all__) is named by
// the shallowest public module that exports it ("requests.get", defined
// in requests.api), its other public paths kept as aliases; the members
// of classes follow their class, and members a class inherits from bases
// in the distribution are added to it, marked inherited and hidden from
// the index. It also returns the public modules read.
func (r *resolver) symbols(public []modFile) ([]model.Symbol, []string) {
	canon := map[target]string{}
	var paths []target // in the order their first path was found
	all := map[target][]string{}
	type modExports struct {
		s    *scannedModule
		mine []binding
	}
	var mods []modExports
	var names []string
	for _, f := range public {
		s := r.module(f.module)
		if s == nil {
			continue
		}
		names = append(names, f.module)
		var mine []binding
		for _, b := range r.exports(s, false) {
			if b.to.def == "" || !isPublicName(b.name) {
				continue
			}
			path := f.module + "." + b.name
			c, ok := canon[b.to]
			switch {
			case !ok:
				paths = append(paths, b.to)
			case strings.Count(c, ".") == strings.Count(path, ".") && b.to.mod == f.module && parentModule(c) != b.to.mod && rootOf(c) == rootOf(path):
				// As shallow, in the same package, and where it is
				// defined: the better name (werkzeug.exceptions.NotFound,
				// not werkzeug.debug.NotFound, which imports it).
			default:
				if c != path {
					all[b.to] = append(all[b.to], path)
				}
				continue
			}
			if ok {
				all[b.to] = append(all[b.to], c)
			}
			canon[b.to] = path
			mine = append(mine, b)
		}
		mods = append(mods, modExports{s, mine})
	}
	aliases := map[target][]string{}
	for _, t := range paths {
		for _, a := range all[t] {
			if a != canon[t] && len(aliases[t]) < 4 {
				aliases[t] = append(aliases[t], a)
			}
		}
	}
	var out []model.Symbol
	var classes []placed
	for _, me := range mods {
		// A module without a docstring is found by name, not listed.
		out = append(out, model.Symbol{Name: me.s.f.module, Kind: "module", Signature: "import " + me.s.f.module, Doc: balanceFences(me.s.m.Doc), File: me.s.f.file, Hidden: me.s.m.Doc == ""})
		for _, b := range me.mine {
			if canon[b.to] != me.s.f.module+"."+b.name {
				continue // a better name was found later
			}
			if len(out) >= maxSymbols {
				r.truncated = true
				break
			}
			p := placed{b.to, canon[b.to]}
			out = r.emit(out, p, aliases[b.to])
			if d := r.def(b.to); d != nil && d.Kind == "class" {
				classes = append(classes, p)
			}
		}
	}
	budget := maxInherited
	for _, c := range classes {
		out = append(out, r.inherited(c, canon, &budget)...)
		r.extBases = append(r.extBases, r.externalBases(c)...)
	}
	return out, names
}

// def returns the definition t names, or nil.
func (r *resolver) def(t target) *PyDef {
	s := r.mods[t.mod]
	if s == nil || t.def == "" {
		return nil
	}
	i, ok := s.top[t.def]
	if !ok {
		return nil
	}
	return &s.m.Defs[i]
}

// emit appends the symbol for p and, for a class, its members (nested
// classes' members too), renamed under p's path.
func (r *resolver) emit(out []model.Symbol, p placed, aliases []string) []model.Symbol {
	if p.to.external {
		return append(out, model.Symbol{
			Name: p.path, Kind: "re-export", Signature: "from " + p.to.mod + " import " + p.to.def,
			Doc:       "Re-exported from " + p.to.mod + ", which this distribution does not hold as Python source (another distribution, or a compiled module); its documentation is there.",
			DefinedIn: p.to.mod, Aliases: aliases,
		})
	}
	s := r.mods[p.to.mod]
	d := r.def(p.to)
	if d == nil {
		return out
	}
	kind := d.Kind
	if kind == "assign" {
		kind = "var"
	}
	definedIn := ""
	if parentModule(p.path) != p.to.mod {
		definedIn = p.to.mod
	}
	out = append(out, model.Symbol{Name: p.path, Kind: kind, Signature: d.Signature, Doc: balanceFences(d.Doc), File: s.f.file, DefinedIn: definedIn, Aliases: aliases})
	if d.Kind != "class" {
		return out
	}
	prefix := d.Name + "."
	for _, m := range s.m.Defs {
		if strings.HasPrefix(m.Name, prefix) && len(out) < maxSymbols {
			out = append(out, model.Symbol{Name: p.path + "." + m.Name[len(prefix):], Kind: m.Kind, Signature: m.Signature, Doc: balanceFences(m.Doc), File: s.f.file, DefinedIn: definedIn})
		}
	}
	return out
}

// members returns the direct members (methods, properties) of class t,
// found once per class.
func (r *resolver) members(t target) []PyDef {
	if ms, ok := r.memberCache[t]; ok {
		return ms
	}
	s := r.mods[t.mod]
	if s == nil {
		return nil
	}
	prefix := t.def + "."
	var out []PyDef
	for _, m := range s.m.Defs {
		if strings.HasPrefix(m.Name, prefix) && !strings.Contains(m.Name[len(prefix):], ".") && m.Kind != "class" {
			out = append(out, m)
		}
	}
	r.memberCache[t] = out
	return out
}

// inherited returns the members class c gets from its bases in the
// distribution, in method resolution order, each under c's path and
// marked with the base it comes from.
func (r *resolver) inherited(c placed, canon map[target]string, budget *int) []model.Symbol {
	have := map[string]bool{}
	for _, m := range r.members(c.to) {
		have[m.Name[len(c.to.def)+1:]] = true
	}
	var out []model.Symbol
	for _, b := range r.mro(c.to, 0)[1:] {
		from := canon[b]
		if from == "" {
			from = b.mod + "." + b.def
		}
		file := r.mods[b.mod].f.file
		for _, m := range r.members(b) {
			short := m.Name[len(b.def)+1:]
			if have[short] || *budget <= 0 {
				continue
			}
			have[short] = true
			*budget--
			out = append(out, model.Symbol{Name: c.path + "." + short, Kind: m.Kind, Signature: m.Signature, Doc: balanceFences(m.Doc), File: file, DefinedIn: from, Inherited: true, Hidden: true})
		}
	}
	return out
}

// mro linearises class t and its bases in the distribution as Python
// does (C3), falling back to depth-first order where C3 has no answer.
func (r *resolver) mro(t target, depth int) []target {
	if l, ok := r.mros[t]; ok {
		return l
	}
	if depth > maxInheritDepth {
		return []target{t}
	}
	r.mros[t] = []target{t} // a cycle reads the class alone
	bases := r.bases(t)
	seqs := make([][]target, 0, len(bases)+1)
	for _, b := range bases {
		seqs = append(seqs, r.mro(b, depth+1))
	}
	seqs = append(seqs, bases)
	l := append([]target{t}, c3merge(seqs)...)
	r.mros[t] = l
	return l
}

// c3merge merges linearisations: repeatedly the first head that is in no
// other sequence's tail. When none is (an inconsistent hierarchy), the
// rest follow in depth-first order.
func c3merge(seqs [][]target) []target {
	var out []target
	for {
		var head *target
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			cand := s[0]
			inTail := false
			for _, o := range seqs {
				for _, x := range o[min(1, len(o)):] {
					if x == cand {
						inTail = true
					}
				}
			}
			if !inTail {
				head = &cand
				break
			}
		}
		if head == nil {
			seen := map[target]bool{}
			for _, x := range out {
				seen[x] = true
			}
			for _, s := range seqs {
				for _, x := range s {
					if !seen[x] {
						seen[x] = true
						out = append(out, x)
					}
				}
			}
			return out
		}
		h := *head
		out = append(out, h)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == h {
				seqs[i] = s[1:]
			}
		}
	}
}

// bases resolves the base classes of class t that the distribution
// defines; bases from elsewhere (object, typing.Generic, other
// distributions) are left out.
func (r *resolver) bases(t target) []target {
	var out []target
	for _, b := range r.baseTargets(t) {
		if bd := r.def(b); bd != nil && bd.Kind == "class" {
			out = append(out, b)
		}
	}
	return out
}

// baseTargets resolves the base classes of class t: the distribution's
// own, and external ones (another distribution's) by their path.
func (r *resolver) baseTargets(t target) []target {
	d := r.def(t)
	if d == nil || d.Kind != "class" {
		return nil
	}
	sig := d.Signature
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return nil
	}
	inner := sig[open+1:]
	if end := headerParen(inner); end >= 0 {
		inner = inner[:end]
	}
	s := r.mods[t.mod]
	var out []target
	for _, arg := range splitTopLevel(inner, ',') {
		arg = strings.TrimSpace(arg)
		if i := strings.IndexByte(arg, '['); i >= 0 {
			arg = arg[:i]
		}
		if arg == "" || strings.ContainsAny(arg, "=*( ") {
			continue
		}
		if b, ok := r.dotted(s, arg); ok && b.def != "" {
			out = append(out, b)
		}
	}
	return out
}

// externalBase is a base class from another distribution of a class
// users reach by path: its members are documented from that
// distribution when it is installed beside this one.
type externalBase struct {
	class string // the class's path, e.g. flask.Request
	base  string // the base's path, e.g. werkzeug.wrappers.request.Request
}

// externalBases lists the bases from other distributions of class c and
// of its bases in the distribution, nearest first.
func (r *resolver) externalBases(c placed) []externalBase {
	var out []externalBase
	for _, t := range r.mro(c.to, 0) {
		for _, b := range r.baseTargets(t) {
			if b.external {
				out = append(out, externalBase{class: c.path, base: b.mod + "." + b.def})
			}
		}
	}
	return out
}

// headerParen returns the index of the ")" closing a class's base list.
func headerParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			i = skipPyString(s, i, "") - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}
