package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
)

// Unasserted returns, for the public packages of the repository at root,
// every type that implements an interface without the compile-time
// assertion beside it that says so (var _ I = (*T)(nil), or = T{}):
//
//	mcp.MemoryEventBus implements mcp.EventBus: add var _ EventBus = (*MemoryEventBus)(nil)
//
// The interfaces are the exported ones of the package itself and of the
// public packages it imports, http.Handler and slog.Handler when it
// imports them, and error. Every named type of the package counts,
// exported or not, except generic ones. The assertion makes a change that
// breaks the implementation fail where the type is, not in a user's build.
func Unasserted(root string) ([]string, error) {
	public, exports, err := load(root)
	if err != nil {
		return nil, err
	}
	publicPaths := map[string]bool{}
	for _, p := range public {
		publicPaths[p.ImportPath] = true
	}
	var out []string
	for _, p := range public {
		missing, err := unassertedIn(p, exports, publicPaths)
		if err != nil {
			return nil, err
		}
		out = append(out, missing...)
	}
	return out, nil
}

// A namedInterface is an interface that implementations assert.
type namedInterface struct {
	name string // as the package's own code writes it
	t    *types.Interface
}

func unassertedIn(p listedPackage, exports map[string]string, public map[string]bool) ([]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", p.ImportPath, err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: exportImporter(fset, exports)}
	pkg, err := conf.Check(p.ImportPath, fset, files, info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", p.ImportPath, err)
	}
	ifaces := interfacesOf(pkg, "")
	for _, imp := range pkg.Imports() {
		switch {
		case public[imp.Path()]:
			ifaces = append(ifaces, interfacesOf(imp, imp.Name()+".")...)
		case imp.Path() == "net/http" || imp.Path() == "log/slog":
			h := imp.Scope().Lookup("Handler").Type().Underlying().(*types.Interface)
			ifaces = append(ifaces, namedInterface{imp.Name() + ".Handler", h})
		}
	}
	ifaces = append(ifaces, namedInterface{"error", types.Universe.Lookup("error").Type().Underlying().(*types.Interface)})

	asserted := assertions(files, info)
	var out []string
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := named.Underlying().(*types.Interface); isIface {
			continue
		}
		for _, i := range ifaces {
			if i.t.NumMethods() == 0 || !types.Implements(types.NewPointer(named), i.t) {
				continue
			}
			if !slices.ContainsFunc(asserted[tn], func(t types.Type) bool { return types.Identical(t.Underlying(), i.t) }) {
				out = append(out, fmt.Sprintf("%s.%s implements %s: add var _ %s = (*%s)(nil) beside it (or = %s{} for a value type)",
					pkg.Name(), n, i.name, i.name, n, n))
			}
		}
	}
	return out, nil
}

// interfacesOf returns the exported interfaces declared in pkg, named with
// prefix.
func interfacesOf(pkg *types.Package, prefix string) []namedInterface {
	var out []namedInterface
	for _, n := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(n).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		if it, ok := tn.Type().Underlying().(*types.Interface); ok {
			out = append(out, namedInterface{prefix + n, it})
		}
	}
	return out
}

// assertions returns, for each type, the interfaces that package-level
// declarations var _ I = value assert it implements.
func assertions(files []*ast.File, info *types.Info) map[*types.TypeName][]types.Type {
	out := map[*types.TypeName][]types.Type{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Type == nil || len(vs.Names) != 1 || vs.Names[0].Name != "_" || len(vs.Values) != 1 {
					continue
				}
				t := info.Types[vs.Values[0]].Type
				if ptr, ok := t.(*types.Pointer); ok {
					t = ptr.Elem()
				}
				if named, ok := t.(*types.Named); ok {
					out[named.Obj()] = append(out[named.Obj()], info.Types[vs.Type].Type)
				}
			}
		}
	}
	return out
}
