package pypi

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
)

// target is what a module-level name is bound to: a top-level definition
// of a scanned module (def != ""), or a module (def == "").
type target struct{ mod, def string }

// How a name came into a module's namespace; it decides what the module
// exports when it has no __all__.
const (
	fromDef    = iota // defined in the module
	fromImport        // "from m import x" or "import m"
	fromStar          // "from m import *"
	fromLazy          // a module __getattr__
	fromAlias         // "X = Y"
	fromAll           // listed in __all__
)

// binding is one name of a module's namespace.
type binding struct {
	name string
	to   target
	how  int
}

// scannedModule is a module read by the resolver and its namespace,
// resolved once.
type scannedModule struct {
	f     modFile
	m     *PyModule
	pkg   bool           // an __init__ file: relative imports start at the module
	top   map[string]int // top-level definition -> index in m.Defs
	ns    []binding
	nsIdx map[string]target
	state int // 0 unresolved, 1 resolving (a cycle reads it partial), 2 resolved
}

// resolver follows a distribution's imports, star imports, lazy tables
// and aliases from module to module, reading modules as it needs them
// within a byte and module budget.
type resolver struct {
	tree      *archive.Tree
	files     map[string]modFile
	mods      map[string]*scannedModule
	bytes     int
	truncated bool
}

func newResolver(tree *archive.Tree, files []modFile) *resolver {
	r := &resolver{tree: tree, files: map[string]modFile{}, mods: map[string]*scannedModule{}}
	for _, f := range files {
		r.files[f.module] = f
	}
	return r
}

// module returns the scanned module name, reading it on first use; nil
// when the distribution has no such module or the budget is spent.
func (r *resolver) module(name string) *scannedModule {
	if s, ok := r.mods[name]; ok {
		return s
	}
	f, ok := r.files[name]
	if !ok {
		return nil
	}
	data, _ := r.tree.Get(f.file)
	if r.bytes+len(data) > maxScanBytes || len(r.mods) >= maxModules {
		r.truncated = true
		return nil
	}
	r.bytes += len(data)
	m := ScanPython(data)
	s := &scannedModule{f: f, m: m, pkg: strings.HasSuffix(f.file, "__init__.py") || strings.HasSuffix(f.file, "__init__.pyi"), top: map[string]int{}}
	for i, d := range m.Defs {
		if !strings.Contains(d.Name, ".") {
			if _, dup := s.top[d.Name]; !dup {
				s.top[d.Name] = i
			}
		}
	}
	r.mods[name] = s
	return s
}

// absolute turns an import's module path, relative to s, into a module
// name.
func (r *resolver) absolute(s *scannedModule, spec string) string {
	rest := strings.TrimLeft(spec, ".")
	dots := len(spec) - len(rest)
	if dots == 0 {
		return spec
	}
	base := s.f.module
	if !s.pkg {
		base = parentModule(base)
	}
	for i := 1; i < dots && base != ""; i++ {
		base = parentModule(base)
	}
	switch {
	case base == "":
		return rest
	case rest == "":
		return base
	}
	return base + "." + rest
}

func parentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// namespace resolves the names a module binds.
func (r *resolver) namespace(s *scannedModule) map[string]target {
	if s.state != 0 {
		return s.nsIdx
	}
	s.state = 1
	s.nsIdx = map[string]target{}
	bind := func(name string, t target, how int) {
		if _, ok := s.nsIdx[name]; ok || name == "" {
			return
		}
		s.nsIdx[name] = t
		s.ns = append(s.ns, binding{name, t, how})
	}
	for _, d := range s.m.Defs {
		if !strings.Contains(d.Name, ".") {
			bind(d.Name, target{s.f.module, d.Name}, fromDef)
		}
	}
	for _, im := range s.m.Imports {
		r.bindImport(s, im, fromImport, bind)
	}
	for _, im := range s.m.Lazy {
		r.bindImport(s, im, fromLazy, bind)
	}
	s.state = 2
	return s.nsIdx
}

// bindImport binds what one import statement (or alias, or lazy entry)
// names, when it resolves inside the distribution.
func (r *resolver) bindImport(s *scannedModule, im PyImport, how int, bind func(string, target, int)) {
	switch {
	case im.Module == "": // an alias of a name already bound
		if t, ok := r.dotted(s, im.Name); ok {
			bind(im.As, t, fromAlias)
		}
	case im.Name == "*":
		if src := r.module(r.absolute(s, im.Module)); src != nil && src != s {
			for _, b := range r.exports(src, true) {
				bind(b.name, b.to, fromStar)
			}
		}
	case im.Name == "":
		if mod := r.absolute(s, im.Module); r.isModule(mod) {
			bind(im.As, target{mod: mod}, how)
		}
	default:
		mod := r.absolute(s, im.Module)
		if src := r.module(mod); src != nil && src != s {
			if t, ok := r.namespace(src)[im.Name]; ok {
				bind(im.As, t, how)
				return
			}
		}
		if sub := mod + "." + im.Name; r.isModule(sub) {
			bind(im.As, target{mod: sub}, how)
		}
	}
}

// isModule reports a module of the distribution.
func (r *resolver) isModule(name string) bool {
	_, ok := r.files[name]
	return ok
}

// dotted resolves "a.b.C" in s's namespace, through modules.
func (r *resolver) dotted(s *scannedModule, name string) (target, bool) {
	parts := strings.Split(name, ".")
	t, ok := r.namespace(s)[parts[0]]
	for _, p := range parts[1:] {
		if !ok || t.def != "" {
			return target{}, false
		}
		if m := r.module(t.mod); m != nil {
			if t2, found := r.namespace(m)[p]; found {
				t = t2
				continue
			}
		}
		t, ok = target{mod: t.mod + "." + p}, r.isModule(t.mod+"."+p)
	}
	return t, ok
}

// exports returns what users of s reach: the names in __all__, else the
// public names it defines, star-imports, provides lazily or aliases, and,
// for a package's __init__ (or a star import, which takes every public
// name), the public names it imports from its own distribution.
func (r *resolver) exports(s *scannedModule, star bool) []binding {
	ns := r.namespace(s)
	var out []binding
	if s.m.All != nil {
		seen := map[string]bool{}
		for _, n := range s.m.All {
			if t, ok := ns[n]; ok && !seen[n] {
				seen[n] = true
				out = append(out, binding{n, t, fromAll})
			}
		}
		return out
	}
	for _, b := range s.ns {
		if !isPublicName(b.name) {
			continue
		}
		if b.how != fromImport || s.pkg || star {
			out = append(out, b)
		}
	}
	return out
}
