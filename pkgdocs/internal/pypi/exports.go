package pypi

import (
	"runtime"
	"strings"
	"sync"
)

// target is what a module-level name is bound to: a top-level definition
// of a scanned module (def != ""), or a module (def == "").
// An external target is a name imported from a module the distribution
// does not hold as Python source (another distribution, a compiled
// module): known by its path only.
type target struct {
	mod, def string
	external bool
}

// How a name came into a module's namespace; it decides what the module
// exports when it has no __all__.
const (
	fromDef      = iota // defined in the module
	fromImport          // "from m import x" or "import m"
	fromStar            // "from m import *"
	fromLazy            // a module __getattr__
	fromAlias           // "X = Y"
	fromAll             // listed in __all__
	fromReexport        // "from m import x as x"
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
// and aliases from module to module, over the modules read within a byte
// and module budget.
type resolver struct {
	tree  fileSource
	files map[string]modFile
	mods  map[string]*scannedModule
	used  map[string]bool // modules whose scan an answer depends on
	mros  map[target][]target
	// extBases are the bases from other distributions of the classes
	// listed, found by symbols.
	extBases []externalBase
	// memberCache holds each class's direct members once found.
	memberCache map[target][]PyDef
	bytes       int
	truncated   bool
}

// newResolver returns a resolver over a distribution's module files.
func newResolver(tree fileSource, files []modFile) *resolver {
	r := &resolver{tree: tree, files: map[string]modFile{}, mods: map[string]*scannedModule{}, used: map[string]bool{}, mros: map[target][]target{}, memberCache: map[target][]PyDef{}}
	for _, f := range files {
		r.files[f.module] = f
	}
	r.prescan(files)
	return r
}

// prescan reads modules within the budget: first the top-level packages
// and, level by level, the modules they import (where their API comes
// from), then the other public modules shallow first, then the private
// ones. Each level is scanned on all CPUs.
func (r *resolver) prescan(files []modFile) {
	queued := map[string]bool{}
	var level []modFile
	for _, f := range files {
		if f.depth == 1 && !f.private {
			level = append(level, f)
			queued[f.module] = true
		}
	}
	for len(level) > 0 && !r.truncated {
		scanned := r.scanAll(level)
		level = nil
		for _, s := range scanned {
			for _, im := range append(append([]PyImport(nil), s.m.Imports...), s.m.Lazy...) {
				if im.Module == "" {
					continue
				}
				mod := r.absolute(s, im.Module)
				for _, m := range []string{mod, mod + "." + im.Name} {
					if f, ok := r.files[m]; ok && !queued[m] {
						queued[m] = true
						level = append(level, f)
					}
				}
			}
		}
	}
	for _, private := range []bool{false, true} {
		var rest []modFile
		for _, f := range files {
			if f.private == private && !queued[f.module] {
				queued[f.module] = true
				rest = append(rest, f)
			}
		}
		if !r.truncated {
			r.scanAll(rest)
		}
	}
}

// scanAll reads files within the budget and scans them in parallel.
func (r *resolver) scanAll(files []modFile) []*scannedModule {
	var chosen []modFile
	var datas [][]byte
	for _, f := range files {
		data, _ := r.tree.Get(f.file)
		if r.bytes+len(data) > maxScanBytes || len(r.mods)+len(chosen) >= maxModules {
			r.truncated = true
			break
		}
		r.bytes += len(data)
		chosen = append(chosen, f)
		datas = append(datas, data)
	}
	scanned := make([]*scannedModule, len(chosen))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(chosen)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				scanned[i] = newScannedModule(chosen[i], datas[i])
			}
		}()
	}
	for i := range chosen {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, s := range scanned {
		r.mods[s.f.module] = s
	}
	return scanned
}

// newScannedModule scans one module.
func newScannedModule(f modFile, data []byte) *scannedModule {
	m := ScanPython(data)
	s := &scannedModule{f: f, m: m, pkg: strings.HasSuffix(f.file, "__init__.py") || strings.HasSuffix(f.file, "__init__.pyi"), top: map[string]int{}}
	for i, d := range m.Defs {
		if !strings.Contains(d.Name, ".") {
			if _, dup := s.top[d.Name]; !dup {
				s.top[d.Name] = i
			}
		}
	}
	return s
}

// module returns the scanned module name, nil when the distribution has
// no such module or it was beyond the budget.
func (r *resolver) module(name string) *scannedModule {
	s := r.mods[name]
	if s != nil {
		r.used[name] = true
	}
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
			bind(d.Name, target{mod: s.f.module, def: d.Name}, fromDef)
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
		if im.Reexport && how == fromImport {
			how = fromReexport
		}
		src := r.module(mod)
		if src != nil && src != s {
			if t, ok := r.namespace(src)[im.Name]; ok {
				bind(im.As, t, how)
				return
			}
		}
		if sub := mod + "." + im.Name; r.isModule(sub) {
			bind(im.As, target{mod: sub}, how)
		} else if !r.isModule(mod) {
			bind(im.As, target{mod: mod, def: im.Name, external: true}, how)
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
		if !ok || t.def != "" || t.external {
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
		switch {
		case b.to.external:
			// Another distribution's name (typing.Any) is not this one's
			// API unless re-exported on purpose.
			if b.how != fromLazy && b.how != fromReexport {
				continue
			}
		case b.how == fromImport && !star:
			// A package's __init__ exports what it imports from inside
			// itself (from .api import get), not what it takes from
			// elsewhere for its own use (from ..exceptions import NotFound).
			if !s.pkg || !strings.HasPrefix(b.to.mod, s.f.module+".") {
				continue
			}
		case b.how == fromDef && !star:
			if d := r.def(b.to); d != nil && d.Kind == "assign" {
				continue // a plain assignment: exported when __all__ names it
			}
		}
		out = append(out, b)
	}
	return out
}
