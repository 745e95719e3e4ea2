package gosrc

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"path"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Methods promoted across packages: a type that embeds a type of another
// package (testify's suite.Suite embeds *assert.Assertions, a Kubernetes
// object embeds metav1.ObjectMeta, an interface embeds io.Reader) has that
// type's methods, which go/doc, reading one package, cannot list. pkgdocs
// reads the embedded type's package too (one level deep, at the version
// the module or project requires) and adds its methods to the type, found
// as Type.Method and marked as promoted from where they are declared.

// embed is a field of an exported type that embeds a type of another
// package.
type embed struct {
	outer   string // the embedding type
	path    string // import path of the embedded type's package
	name    string // the embedded type
	qual    string // the name the source qualifies it with: "metav1" in metav1.ObjectMeta
	pointer bool   // embedded as *T
}

// maxEmbeddedPackages bounds the packages read for one answer.
const maxEmbeddedPackages = 4

// extracted is what extract learnt beyond the package: its cross-package
// embeddings and the module it was read from ("" for the standard library
// and local directories).
type extracted struct {
	embeds []embed
	module string
}

// extract documents a package (Extract) and remembers its cross-package
// embeddings for Describe.
func (s *Source) extract(tree *archive.Tree, dir, p string, tgt Target, mod string) (*model.Package, error) {
	pkg, embeds, err := extractPackage(tree, dir, p, tgt)
	if err != nil {
		return nil, err
	}
	if len(embeds) > 0 {
		s.pending.Store(pkg, extracted{embeds: embeds, module: mod})
	}
	return pkg, nil
}

// crossEmbeds lists the fields of the exported types of files that embed
// a type of another package.
func crossEmbeds(files []*ast.File) []embed {
	var out []embed
	for _, f := range files {
		imports := importNames(f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range gd.Specs {
				ts, ok := sp.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				var fields *ast.FieldList
				switch t := ts.Type.(type) {
				case *ast.StructType:
					fields = t.Fields
				case *ast.InterfaceType:
					fields = t.Methods
				}
				if fields == nil {
					continue
				}
				for _, fl := range fields.List {
					if len(fl.Names) > 0 {
						continue
					}
					typ, ptr := fl.Type, false
					if st, ok := typ.(*ast.StarExpr); ok {
						typ, ptr = st.X, true
					}
					sel, ok := typ.(*ast.SelectorExpr)
					if !ok || !sel.Sel.IsExported() {
						continue
					}
					x, ok := sel.X.(*ast.Ident)
					if !ok || imports[x.Name] == "" {
						continue
					}
					out = append(out, embed{outer: ts.Name.Name, path: imports[x.Name], name: sel.Sel.Name, qual: x.Name, pointer: ptr})
				}
			}
		}
	}
	return out
}

var majorRE = regexp.MustCompile(`^v[0-9]+$|\.v[0-9]+$`)

// importNames maps the names a file refers to its imports by to their
// paths: an import's own name, else the name its path suggests (the last
// element without a major version suffix, "go-" prefix or "-go" suffix;
// the package clause itself is not read).
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "`\"")
		if im.Name != nil {
			if im.Name.Name != "_" && im.Name.Name != "." {
				out[im.Name.Name] = p
			}
			continue
		}
		name := path.Base(p)
		if majorRE.MatchString(name) && strings.HasPrefix(name, "v") {
			name = path.Base(path.Dir(p))
		}
		name = majorRE.ReplaceAllString(name, "")
		name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), "-go")
		out[strings.ReplaceAll(name, "-", "")] = p
	}
	return out
}

// promoteAcross reads the packages of pkg's cross-package embeddings and
// adds their types' methods to the embedding types.
func (s *Source) promoteAcross(ctx context.Context, pkg *model.Package, x extracted, req Request) {
	have := make(map[string]bool, len(pkg.Symbols))
	for _, sym := range pkg.Symbols {
		have[sym.Name] = true
	}
	loaded := map[string]*model.Package{}
	var failed []string
	for _, e := range x.embeds {
		dep, seen := loaded[e.path]
		if !seen {
			if len(loaded) >= maxEmbeddedPackages {
				continue
			}
			var err error
			dep, err = s.describe(ctx, Request{ImportPath: e.path, Version: s.embeddedVersion(ctx, pkg, x.module, e.path, req), ProjectPath: req.ProjectPath, Target: req.Target})
			loaded[e.path] = dep
			if dep != nil {
				s.pending.Delete(dep) // one level deep: its own embeddings are not followed
			}
			if err != nil {
				why := err.Error()
				if errors.Is(err, ErrNotFound) {
					why = "not found"
				}
				failed = append(failed, fmt.Sprintf("%s (%s)", e.path, why))
				continue
			}
		}
		if dep == nil {
			continue
		}
		// Methods the outer type has of its own, or from a shallower
		// embedding, win; two embeddings giving one name are ambiguous.
		added := map[string]int{}
		prefix := e.name + "."
		for _, m := range dep.Symbols {
			short, ok := strings.CutPrefix(m.Name, prefix)
			if !ok || m.Kind != "method" || strings.Contains(short, ".") || have[e.outer+"."+short] {
				continue
			}
			added[short]++
			pkg.Symbols = append(pkg.Symbols, model.Symbol{
				Name: e.outer + "." + short, Kind: "method", Hidden: true,
				Signature: promotedSignature(m.Signature, e.outer, e.pointer),
				Doc:       joinDoc(m.Doc, fmt.Sprintf("*Promoted from the embedded %s.%s.*", e.qual, e.name)),
				File:      m.File, Package: dep.Name + "@" + dep.Version,
			})
		}
		for short := range added {
			have[e.outer+"."+short] = true
		}
	}
	if len(failed) > 0 {
		pkg.Notes = append(pkg.Notes, "Not listed: methods promoted from embedded types of "+strings.Join(failed, ", ")+".")
	}
}

// embeddedVersion is the version to read an embedded type's package at:
// the described module's own version for one of its packages; with a
// project, its go.mod's ("" asks it); else the version the described
// module's go.mod requires, if it does.
func (s *Source) embeddedVersion(ctx context.Context, pkg *model.Package, mod, dep string, req Request) string {
	switch {
	case mod == "" || isStd(dep):
		return ""
	case within(dep, mod):
		return pkg.Version
	case req.ProjectPath != "":
		return ""
	}
	data, err := s.Proxy.Mod(ctx, mod, pkg.Version)
	if err != nil {
		return ""
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return ""
	}
	best := ""
	var version string
	for _, r := range f.Require {
		if within(dep, r.Mod.Path) && len(r.Mod.Path) > len(best) {
			best, version = r.Mod.Path, r.Mod.Version
		}
	}
	return version
}

// promotedSignature rewrites a method's receiver to the embedding type:
// "func (a *Assertions) Equal(...)" embedded by pointer in Suite is
// "func (a Suite) Equal(...)", as go/doc writes promoted methods.
func promotedSignature(sig, outer string, embeddedPointer bool) string {
	rest, ok := strings.CutPrefix(sig, "func (")
	i := strings.Index(rest, ") ")
	if !ok || i < 0 {
		return sig
	}
	recv := strings.Fields(rest[:i])
	name, star := "", ""
	if len(recv) == 2 {
		name = recv[0] + " "
	}
	if len(recv) > 0 && strings.HasPrefix(recv[len(recv)-1], "*") && !embeddedPointer {
		star = "*"
	}
	return "func (" + name + star + outer + rest[i:]
}

// zipMemo keeps the module zips one Describe call downloaded, so that the
// packages of embedded types in the same module (zap and zapcore) are read
// from the zip already in memory.
type zipMemo struct {
	mu   sync.Mutex
	zips map[string]memoZip
}

type memoZip struct {
	data []byte
	url  string
}

type zipMemoKey struct{}

func withZipMemo(ctx context.Context) context.Context {
	if _, ok := ctx.Value(zipMemoKey{}).(*zipMemo); ok {
		return ctx
	}
	return context.WithValue(ctx, zipMemoKey{}, &zipMemo{zips: map[string]memoZip{}})
}

// zipOnce returns the zip of mod@version, downloading it once per
// Describe call.
func zipOnce(ctx context.Context, p *Proxy, mod, version string, limit int64) ([]byte, string, error) {
	memo, _ := ctx.Value(zipMemoKey{}).(*zipMemo)
	key := mod + "@" + version
	if memo != nil {
		memo.mu.Lock()
		z, ok := memo.zips[key]
		memo.mu.Unlock()
		if ok {
			return z.data, z.url, nil
		}
	}
	data, u, err := p.Zip(ctx, mod, version, limit)
	if err == nil && memo != nil {
		memo.mu.Lock()
		memo.zips[key] = memoZip{data, u}
		memo.mu.Unlock()
	}
	return data, u, err
}
