package pypi

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxSiblings bounds the other installed distributions read to document
// what one distribution re-exports from them.
const maxSiblings = 3

// siblings reads, at most maxSiblings of them, the distributions
// installed beside one, by the top-level module they provide.
type siblings struct {
	site, self string
	byRoot     map[string]*model.Package
	read       int               // distributions read
	topLevel   map[string]string // top-level module -> .dist-info, from top_level.txt files, read once
}

func newSiblings(site, self string) *siblings {
	return &siblings{site: site, self: self, byRoot: map[string]*model.Package{}}
}

// get returns the distribution providing root, or nil (the standard
// library's modules, distributions not installed).
func (sb *siblings) get(root string) *model.Package {
	if p, ok := sb.byRoot[root]; ok {
		return p
	}
	var p *model.Package
	if di := sb.distInfoFor(root); di != "" && di != sb.self && sb.read < maxSiblings {
		sb.read++
		p = readSibling(sb.site, di)
	}
	sb.byRoot[root] = p
	return p
}

// distInfoFor finds the .dist-info of the distribution providing the
// top-level module root: the one named like it, else the one whose
// top_level.txt lists it.
func (sb *siblings) distInfoFor(root string) string {
	if di := distInfoIn(sb.site, Normalize(root)); di != "" {
		return di
	}
	if sb.topLevel == nil {
		sb.topLevel = map[string]string{}
		infos, _ := filepath.Glob(filepath.Join(sb.site, "*.dist-info", "top_level.txt"))
		for _, t := range infos {
			data, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			for _, l := range strings.Fields(string(data)) {
				sb.topLevel[l] = filepath.Base(filepath.Dir(t))
			}
		}
	}
	return sb.topLevel[root]
}

// fillReexports replaces the stubs of names a distribution re-exports
// from another distribution installed beside it (pydantic.ValidationError
// from pydantic-core) with that distribution's documentation of them, and
// adds their members. A name whose distribution is not installed, or not
// found there, keeps its stub.
func fillReexports(sb *siblings, syms []model.Symbol) []model.Symbol {
	var extra []model.Symbol
	for i, s := range syms {
		if s.Kind != "re-export" {
			continue
		}
		other := sb.get(rootOf(s.DefinedIn))
		if other == nil {
			continue
		}
		_, name, _ := strings.Cut(s.Signature, " import ")
		found := findPath(other.Symbols, s.DefinedIn+"."+name)
		if found == nil {
			continue
		}
		from := found.Name
		doc := *found
		doc.Name, doc.Aliases, doc.Package = s.Name, s.Aliases, other.Name+"@"+other.Version
		if doc.DefinedIn == "" {
			doc.DefinedIn = parentModule(from)
		}
		syms[i] = doc
		for _, m := range other.Symbols {
			if strings.HasPrefix(m.Name, from+".") && m.Kind != "module" {
				m.Name = s.Name + m.Name[len(from):]
				m.Package = doc.Package
				if m.DefinedIn == "" {
					m.DefinedIn = doc.DefinedIn
				}
				extra = append(extra, m)
			}
		}
	}
	return append(syms, extra...)
}

// fillExternalBases adds to classes the members they inherit from bases
// in distributions installed beside theirs (flask.Request.args from
// werkzeug's Request), marked inherited, unless the class has its own.
func fillExternalBases(sb *siblings, syms []model.Symbol, bases []externalBase) []model.Symbol {
	if len(bases) == 0 {
		return syms
	}
	have := make(map[string]bool, len(syms))
	for _, s := range syms {
		have[s.Name] = true
	}
	added := 0
	for _, e := range bases {
		other := sb.get(rootOf(e.base))
		if other == nil {
			continue
		}
		base := findPath(other.Symbols, e.base)
		if base == nil || base.Kind != "class" {
			continue
		}
		prefix := base.Name + "."
		for _, m := range other.Symbols {
			rest := strings.TrimPrefix(m.Name, prefix)
			if rest == m.Name || strings.Contains(rest, ".") || (m.Kind != "method" && m.Kind != "property") || added >= maxInherited {
				continue
			}
			name := e.class + "." + rest
			if have[name] {
				continue
			}
			have[name] = true
			added++
			if !m.Inherited {
				m.DefinedIn = base.Name
			}
			m.Name, m.Aliases, m.Inherited, m.Hidden = name, nil, true, true
			m.Package = other.Name + "@" + other.Version
			syms = append(syms, m)
		}
	}
	return syms
}

// findPath returns the symbol named path, by its name or an alias.
func findPath(syms []model.Symbol, path string) *model.Symbol {
	for i := range syms {
		if syms[i].Name == path {
			return &syms[i]
		}
		for _, a := range syms[i].Aliases {
			if a == path {
				return &syms[i]
			}
		}
	}
	return nil
}

// readSibling documents an installed distribution's API.
func readSibling(site, di string) *model.Package {
	tree, err := readInstalled(site, di)
	if err != nil {
		return nil
	}
	info := inspectDist(tree)
	_, version, _ := strings.Cut(strings.TrimSuffix(di, ".dist-info"), "-")
	name := info.meta.Name
	if name == "" {
		name, _, _ = strings.Cut(di, "-")
	}
	return &model.Package{Name: name, Version: version, Symbols: info.symbols}
}
