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

// fillReexports replaces the stubs of names a distribution re-exports
// from another distribution installed beside it (pydantic.ValidationError
// from pydantic-core) with that distribution's documentation of them, and
// adds their members. A name whose distribution is not installed, or not
// found there, keeps its stub.
func fillReexports(site, self string, syms []model.Symbol) []model.Symbol {
	others := map[string]*model.Package{}
	var extra []model.Symbol
	for i, s := range syms {
		if s.Kind != "re-export" {
			continue
		}
		root := rootOf(s.DefinedIn)
		other, seen := others[root]
		if !seen {
			if len(others) >= maxSiblings {
				continue
			}
			other = siblingDist(site, self, root)
			others[root] = other
		}
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

// siblingDist documents the distribution installed in site that provides
// the top-level module root: the one named like it, else the one whose
// top_level.txt lists it. nil when none does.
func siblingDist(site, self, root string) *model.Package {
	di := distInfoIn(site, Normalize(root))
	if di == "" {
		infos, _ := filepath.Glob(filepath.Join(site, "*.dist-info", "top_level.txt"))
		for _, t := range infos {
			data, err := os.ReadFile(t)
			if err == nil && containsLine(string(data), root) {
				di = filepath.Base(filepath.Dir(t))
				break
			}
		}
	}
	if di == "" || di == self {
		return nil
	}
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

// containsLine reports whether text has a line equal to s.
func containsLine(text, s string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}
