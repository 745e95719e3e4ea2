package render

import (
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// SymbolIndex finds a package's symbols by name without scanning them all:
// built once per package, it answers FindSymbols and SymbolBlocks in time
// proportional to the matches, which keeps symbol answers for packages with
// thousands of symbols (@types/node) fast. It is immutable once built and
// safe for concurrent use.
type SymbolIndex struct {
	p       *model.Package
	exact   map[string][]int // name -> symbols
	folded  map[string][]int // lower-case name -> symbols
	last    map[string][]int // lower-case last component of a qualified name -> symbols
	members map[string][]int // owner name -> member symbols
}

// NewSymbolIndex indexes the symbols of p.
func NewSymbolIndex(p *model.Package) *SymbolIndex {
	x := &SymbolIndex{
		p:       p,
		exact:   make(map[string][]int, len(p.Symbols)),
		folded:  make(map[string][]int, len(p.Symbols)),
		last:    map[string][]int{},
		members: map[string][]int{},
	}
	for i, s := range p.Symbols {
		x.exact[s.Name] = append(x.exact[s.Name], i)
		lower := strings.ToLower(s.Name)
		x.folded[lower] = append(x.folded[lower], i)
		for _, a := range s.Aliases {
			x.exact[a] = append(x.exact[a], i)
			x.folded[strings.ToLower(a)] = append(x.folded[strings.ToLower(a)], i)
		}
		if j := strings.LastIndexAny(s.Name, ".:#"); j >= 0 {
			l := strings.ToLower(s.Name[j+1:])
			x.last[l] = append(x.last[l], i)
		}
		if memberKinds[s.Kind] {
			if j := max(strings.LastIndex(s.Name, "::"), strings.LastIndexByte(s.Name, '.')); j > 0 {
				x.members[s.Name[:j]] = append(x.members[s.Name[:j]], i)
			}
		}
	}
	// A module's answer lists the names it holds (a Python module's
	// functions and classes).
	modules := map[string]bool{}
	for _, s := range p.Symbols {
		if s.Kind == "module" {
			modules[s.Name] = true
		}
	}
	if len(modules) > 0 {
		for i, s := range p.Symbols {
			if j := strings.LastIndexByte(s.Name, '.'); j > 0 && !memberKinds[s.Kind] && s.Kind != "module" && modules[s.Name[:j]] {
				x.members[s.Name[:j]] = append(x.members[s.Name[:j]], i)
			}
		}
	}
	return x
}

// Find returns the symbols matching name, as FindSymbols does.
func (x *SymbolIndex) Find(name string) []model.Symbol {
	name = strings.TrimSpace(name)
	if got := x.pick(x.exact[name], func(s model.Symbol) bool { return named(s, name, false) }); got != nil {
		return got
	}
	if strings.Contains(name, ".") {
		// A qualified suffix in its exact case ("Flask.config" for
		// flask.Flask.config) wins over a whole name in another case
		// (flask.Config).
		var exact []model.Symbol
		for _, s := range x.p.Symbols {
			if strings.HasSuffix(s.Name, "."+name) {
				exact = append(exact, s)
			}
		}
		if len(exact) > 0 {
			// The shortest path first: werkzeug.Request.args before
			// werkzeug.sansio.request.Request.args.
			sort.SliceStable(exact, func(i, j int) bool { return strings.Count(exact[i].Name, ".") < strings.Count(exact[j].Name, ".") })
			return exact
		}
	}
	lower := strings.ToLower(name)
	// A last name component in the exact case (the class flask.Flask)
	// wins over a whole name in another case (the module flask).
	if got := x.pick(x.last[lower], func(s model.Symbol) bool {
		return s.Name != name && s.Name[strings.LastIndexAny(s.Name, ".:#")+1:] == name
	}); got != nil {
		return exactCaseFirst(got, name)
	}
	if got := x.pick(x.folded[lower], func(s model.Symbol) bool { return named(s, name, true) }); got != nil {
		return got
	}
	if got := x.pick(x.last[lower], func(s model.Symbol) bool {
		return !strings.EqualFold(s.Name, name) && strings.EqualFold(s.Name[strings.LastIndexAny(s.Name, ".:#")+1:], name)
	}); got != nil {
		return exactCaseFirst(got, name)
	}
	if !strings.Contains(name, ".") && !strings.Contains(name, "::") {
		return nil
	}
	return FindSymbols(x.p.Symbols, name) // a qualified suffix ("Moment.format", "TcpListener::bind"): rare, scanned
}

func (x *SymbolIndex) pick(idx []int, ok func(model.Symbol) bool) []model.Symbol {
	var out []model.Symbol
	for _, i := range idx {
		if s := x.p.Symbols[i]; ok(s) {
			out = append(out, s)
		}
	}
	return out
}

// Blocks returns the answer blocks for symbol name, as SymbolBlocks does.
func (x *SymbolIndex) Blocks(name string) []Block {
	return symbolBlocks(x.p, x.Find(name), func(owner string) []model.Symbol {
		return x.pick(x.members[owner], func(model.Symbol) bool { return true })
	})
}

// exactCaseFirst keeps, of symbols whose name ends in name ignoring case,
// those that end in it exactly when there are any (the class Environment,
// not the module environment), members of types after the rest (the
// function requests.get before the method Session.get).
func exactCaseFirst(syms []model.Symbol, name string) []model.Symbol {
	var exact []model.Symbol
	for _, s := range syms {
		if strings.HasSuffix(s.Name, name) {
			exact = append(exact, s)
		}
	}
	if len(exact) == 0 {
		exact = syms
	}
	sort.SliceStable(exact, func(i, j int) bool { return !memberKinds[exact[i].Kind] && memberKinds[exact[j].Kind] })
	return exact
}

// named reports whether s is called name, by its name or an alias,
// ignoring case when fold is set.
func named(s model.Symbol, name string, fold bool) bool {
	eq := func(a string) bool { return a == name || fold && strings.EqualFold(a, name) }
	if eq(s.Name) {
		return true
	}
	for _, a := range s.Aliases {
		if eq(a) {
			return true
		}
	}
	return false
}
