// Package importcheck finds imports of one module's internal packages from
// another module of the same repository.
//
// Go allows such an import whenever the importing path shares the prefix
// before "internal" (every module under github.com/gomcp/sdk may import
// github.com/gomcp/sdk/internal/...), but modules are released separately:
// an auth vN built against a newer root whose internal API changed would not
// compile. So every module other than the owner of an internal package uses
// only its public API, and [Check] reports each import that does not.
package importcheck

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A Module is a Go module of the repository.
type Module struct {
	// Path is the module path of its go.mod, Dir its directory relative to
	// the repository root ("." for the root).
	Path, Dir string
}

// A Violation is an import of another module's internal package.
type Violation struct {
	// File is the importing file relative to the repository root, Line the
	// line of the import.
	File string
	Line int
	// Module is the importing module's path, Import the imported package
	// and Owner the path of the module that holds it.
	Module, Import, Owner string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s:%d: module %s imports %s, internal to module %s", v.File, v.Line, v.Module, v.Import, v.Owner)
}

// Modules returns the modules found under root: every directory with a
// go.mod, except under testdata, node_modules and hidden directories, which
// the go command ignores.
func Modules(root string) ([]Module, error) {
	var mods []Module
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		modPath, err := modulePath(path)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		mods = append(mods, Module{Path: modPath, Dir: filepath.ToSlash(dir)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("finding modules: %w", err)
	}
	return mods, nil
}

func skipDir(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// modulePath reads the module directive of the go.mod file at path.
func modulePath(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return "", fmt.Errorf("%s: no module directive", path)
}

// Check returns every import, in the Go files of the modules under root,
// of an internal package that belongs to another of those modules. A
// package belongs to the module with the longest path that prefixes its
// import path. Test files and files of every build constraint count.
func Check(root string) ([]Violation, error) {
	mods, err := Modules(root)
	if err != nil {
		return nil, err
	}
	var out []Violation
	for _, m := range mods {
		vs, err := checkModule(root, m, mods)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

// checkModule checks the Go files of module m, leaving out the directories
// of modules nested in it.
func checkModule(root string, m Module, mods []Module) ([]Violation, error) {
	nested := map[string]bool{}
	for _, o := range mods {
		if o.Dir != m.Dir {
			nested[filepath.Join(root, filepath.FromSlash(o.Dir))] = true
		}
	}
	var out []Violation
	fset := token.NewFileSet()
	top := filepath.Join(root, filepath.FromSlash(m.Dir))
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != top && (skipDir(d.Name()) || nested[path]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("reading imports: %w", err)
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil || !isInternal(imp) {
				continue
			}
			owner := owningModule(imp, mods)
			if owner == "" || owner == m.Path {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			out = append(out, Violation{
				File: filepath.ToSlash(rel), Line: fset.Position(spec.Pos()).Line,
				Module: m.Path, Import: imp, Owner: owner,
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", m.Path, err)
	}
	return out, nil
}

// isInternal reports whether an import path names an internal package.
func isInternal(imp string) bool {
	return strings.HasSuffix(imp, "/internal") || strings.Contains(imp, "/internal/") || strings.HasPrefix(imp, "internal/")
}

// owningModule returns the path of the module of mods that holds the
// package imp, or "" if none does (a package of another repository).
func owningModule(imp string, mods []Module) string {
	best := ""
	for _, m := range mods {
		if (imp == m.Path || strings.HasPrefix(imp, m.Path+"/")) && len(m.Path) > len(best) {
			best = m.Path
		}
	}
	return best
}
