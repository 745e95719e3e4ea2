package gosrc

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/printer"
	"go/token"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/readme"
)

// Target selects build constraints.
type Target struct {
	GOOS   string // default linux
	GOARCH string // default amd64
}

func (t Target) withDefaults() Target {
	if t.GOOS == "" {
		t.GOOS = "linux"
	}
	if t.GOARCH == "" {
		t.GOARCH = "amd64"
	}
	return t
}

// Extract documents the package in directory dir of tree (a module or
// GOROOT/src tree), whose import path is importPath.
func Extract(tree *archive.Tree, dir, importPath string, tgt Target) (*model.Package, error) {
	pkg, _, err := extractPackage(tree, dir, importPath, tgt)
	return pkg, err
}

// extractPackage is Extract, also returning the fields of the package's
// exported types that embed types of other packages.
func extractPackage(tree *archive.Tree, dir, importPath string, tgt Target) (*model.Package, []embed, error) {
	tgt = tgt.withDefaults()
	ctxt := virtualContext(tree, tgt)
	bp, err := ctxt.ImportDir("/"+dir, build.ImportComment)
	if err != nil {
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil, nil, fmt.Errorf("package %s: %w for GOOS=%s GOARCH=%s (try another goos/goarch)", importPath, ErrNoGoFiles, tgt.GOOS, tgt.GOARCH)
		}
		var multi *build.MultiplePackageError
		if !errors.As(err, &multi) {
			return nil, nil, fmt.Errorf("package %s: %w", importPath, err)
		}
		return nil, nil, fmt.Errorf("package %s: %w", importPath, err)
	}
	fset := token.NewFileSet()
	// Tests only feed examples: a broken test file must not hide the API,
	// and a test file without an example is not parsed at all (most of a
	// module's test code; parsing it was most of a cold answer's time).
	names := append([]string(nil), bp.GoFiles...)
	for _, n := range append(append([]string(nil), bp.TestGoFiles...), bp.XTestGoFiles...) {
		if src, _ := tree.Get(path.Join(dir, n)); bytes.Contains(src, []byte("func Example")) {
			names = append(names, n)
		}
	}
	parsed, errs := parseFiles(fset, tree, dir, names)
	var files []*ast.File
	for i, f := range parsed {
		if errs[i] != nil && i < len(bp.GoFiles) {
			return nil, nil, fmt.Errorf("package %s: parsing %s: %w", importPath, names[i], errs[i])
		}
		if errs[i] == nil {
			files = append(files, f)
		}
	}
	comments := sortedComments(files)
	ifaces := interfaceLists(files[:len(bp.GoFiles)])
	embeds := crossEmbeds(files[:len(bp.GoFiles)])
	dp, err := doc.NewFromFiles(fset, files, importPath, doc.AllMethods)
	if err != nil {
		return nil, nil, fmt.Errorf("package %s: %w", importPath, err)
	}
	x := &extractor{fset: fset, comments: comments, dp: dp, ifaces: ifaces, docs: map[string]string{}, sigs: map[*ast.FuncType]string{}}
	pkg := &model.Package{
		Name:      importPath,
		Ecosystem: model.Go,
		Synopsis:  dp.Synopsis(dp.Doc),
	}
	if bp.Name == "main" {
		pkg.Notes = append(pkg.Notes, "This is a command (package main), not an importable library.")
	}
	pkg.Deprecated = deprecation(dp.Doc)
	if d := x.markdown(dp.Doc); d != "" {
		pkg.Sections = append(pkg.Sections, readme.Sections([]byte(d), "package doc")...)
	}
	readmeFile := ""
	for _, name := range []string{path.Join(dir, "README.md"), path.Join(dir, "README")} {
		if src, ok := tree.Get(name); ok {
			pkg.Sections = append(pkg.Sections, readme.Sections(src, name)...)
			readmeFile = name
			break
		}
	}
	pkg.Sections = promoteMainExample(pkg.Sections, readmeFile)
	x.symbols(pkg)
	x.examples(pkg)
	return pkg, embeds, nil
}

type extractor struct {
	fset     *token.FileSet
	comments []*ast.CommentGroup
	dp       *doc.Package
	ifaces   map[string][]*ast.Field  // method lists of the package's interfaces
	docs     map[string]string        // doc comment -> markdown
	sigs     map[*ast.FuncType]string // method type -> "Name(params) results"
}

func (x *extractor) markdown(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	if md, ok := x.docs[text]; ok {
		return md // a promoted method's doc, once per embedding type
	}
	md := x.render(text)
	x.docs[text] = md
	return md
}

func (x *extractor) render(text string) string {
	pr := x.dp.Printer()
	pr.HeadingLevel = 2
	pr.DocLinkBaseURL = "https://pkg.go.dev"
	md := string(pr.Markdown(x.dp.Parser().Parse(text)))
	md = headingIDRE.ReplaceAllString(md, "")
	md = localLinkRE.ReplaceAllString(md, "$1")
	return strings.TrimSpace(md)
}

var (
	headingIDRE = regexp.MustCompile(` \{#hdr-[^}]*\}`)
	localLinkRE = regexp.MustCompile(`\[([^\]]+)\]\(#[^)]*\)`)
)

func (x *extractor) print(node any, withComments bool) string {
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if withComments {
		node = &printer.CommentedNode{Node: node, Comments: x.keptComments(node.(ast.Node))}
	}
	if err := cfg.Fprint(&buf, x.fset, node); err != nil {
		return ""
	}
	return buf.String()
}

// keptComments returns the comments to print with a declaration: inside
// it, only those of the fields, methods and specs go/doc kept (the
// comments of unexported fields it filtered out would otherwise print as
// orphans: go-redis's Client opened with a page of them), and a trailing
// line comment. x.comments is in source order (files are added to the
// file set in order), so the range is found by binary search.
func (x *extractor) keptComments(decl ast.Node) []*ast.CommentGroup {
	attached := map[*ast.CommentGroup]bool{}
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			attached[n.Doc], attached[n.Comment] = true, true
		case *ast.TypeSpec:
			attached[n.Doc], attached[n.Comment] = true, true
		case *ast.ValueSpec:
			attached[n.Doc], attached[n.Comment] = true, true
		}
		return true
	})
	i := sort.Search(len(x.comments), func(i int) bool { return x.comments[i].End() >= decl.Pos() })
	out := []*ast.CommentGroup{}
	for ; i < len(x.comments); i++ {
		c := x.comments[i]
		if c.Pos() >= decl.End() && !attached[c] {
			break
		}
		if attached[c] {
			out = append(out, c)
		}
	}
	return out
}

func (x *extractor) fileOf(pos token.Pos) string {
	return path.Base(x.fset.Position(pos).Filename)
}

func (x *extractor) funcSymbol(f *doc.Func, name, kind string) model.Symbol {
	d := *f.Decl
	d.Doc, d.Body = nil, nil
	return model.Symbol{Name: name, Kind: kind, Signature: x.print(&d, false), Doc: x.markdown(f.Doc), File: x.fileOf(f.Decl.Pos())}
}

func (x *extractor) values(vals []*doc.Value, kind string) []model.Symbol {
	var out []model.Symbol
	for _, v := range vals {
		d := *v.Decl
		d.Doc = nil
		out = append(out, model.Symbol{
			Name:      strings.Join(v.Names, ", "),
			Kind:      kind,
			Signature: x.print(&d, true),
			Doc:       x.markdown(v.Doc),
			File:      x.fileOf(v.Decl.Pos()),
		})
	}
	return out
}

func (x *extractor) symbols(pkg *model.Package) {
	dp := x.dp
	pkg.Symbols = append(pkg.Symbols, x.values(dp.Consts, "const")...)
	pkg.Symbols = append(pkg.Symbols, x.values(dp.Vars, "var")...)
	for _, f := range dp.Funcs {
		pkg.Symbols = append(pkg.Symbols, x.funcSymbol(f, f.Name, "func"))
	}
	for _, t := range dp.Types {
		d := *t.Decl
		d.Doc = nil
		pkg.Symbols = append(pkg.Symbols, model.Symbol{
			Name: t.Name, Kind: "type", Signature: x.print(&d, true), Doc: x.markdown(t.Doc), File: x.fileOf(t.Decl.Pos()),
		})
		pkg.Symbols = append(pkg.Symbols, x.values(t.Consts, "const")...)
		pkg.Symbols = append(pkg.Symbols, x.values(t.Vars, "var")...)
		for _, f := range t.Funcs {
			pkg.Symbols = append(pkg.Symbols, x.funcSymbol(f, f.Name, "func"))
		}
		pkg.Symbols = append(pkg.Symbols, x.methodSymbols(t)...)
		pkg.Symbols = append(pkg.Symbols, x.interfaceMethods(t, x.ifaces)...)
	}
}

func (x *extractor) examples(pkg *model.Package) {
	add := func(exs []*doc.Example, prefix string) {
		for _, ex := range exs {
			name := "Example" + prefix
			if ex.Suffix != "" {
				name += "_" + ex.Suffix
			}
			code := x.exampleCode(ex)
			if code == "" {
				continue
			}
			pkg.Examples = append(pkg.Examples, model.Example{Name: name, Doc: x.markdown(ex.Doc), Code: code, Output: ex.Output, Lang: "go"})
		}
	}
	dp := x.dp
	add(dp.Examples, "")
	for _, f := range dp.Funcs {
		add(f.Examples, f.Name)
	}
	for _, t := range dp.Types {
		add(t.Examples, t.Name)
		for _, f := range t.Funcs {
			add(f.Examples, f.Name)
		}
		for _, m := range t.Methods {
			add(m.Examples, t.Name+"_"+m.Name)
		}
	}
	sort.SliceStable(pkg.Examples, func(i, j int) bool { return pkg.Examples[i].Name < pkg.Examples[j].Name })
}

// exampleCode prints an example body without its braces, dedented.
func (x *extractor) exampleCode(ex *doc.Example) string {
	if ex.Play != nil {
		var buf bytes.Buffer
		if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, x.fset, ex.Play); err == nil {
			return strings.TrimSpace(buf.String())
		}
	}
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, x.fset, &printer.CommentedNode{Node: ex.Code, Comments: ex.Comments}); err != nil {
		return ""
	}
	s := strings.TrimSpace(buf.String())
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
		var lines []string
		for _, l := range strings.Split(strings.Trim(s, "\n"), "\n") {
			lines = append(lines, strings.TrimPrefix(l, "\t"))
		}
		s = strings.Join(lines, "\n")
	}
	// Drop the "// Output:" comment: the output is rendered separately.
	if i := strings.Index(s, "// Output:"); i >= 0 && ex.Output != "" {
		s = strings.TrimRight(s[:i], " \t\n")
	}
	return strings.TrimSpace(s)
}

// virtualContext returns a build.Context that reads tree rooted at "/".
func virtualContext(tree *archive.Tree, tgt Target) build.Context {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH = tgt.GOOS, tgt.GOARCH
	ctxt.CgoEnabled = false
	ctxt.GOROOT, ctxt.GOPATH = "/nonexistent-goroot", ""
	ctxt.JoinPath = path.Join
	ctxt.IsAbsPath = path.IsAbs
	ctxt.SplitPathList = func(string) []string { return nil }
	ctxt.HasSubdir = func(root, dir string) (string, bool) { return "", false }
	rel := func(p string) string { return strings.TrimPrefix(path.Clean(p), "/") }
	ctxt.IsDir = func(p string) bool { return tree.HasDir(rel(p)) }
	ctxt.ReadDir = func(dir string) ([]fs.FileInfo, error) {
		d := rel(dir)
		var out []fs.FileInfo
		for _, n := range tree.Names() {
			if path.Dir(n) == d || (d == "" && !strings.Contains(n, "/")) {
				b, _ := tree.Get(n)
				out = append(out, fileInfo{name: path.Base(n), size: int64(len(b))})
			}
		}
		return out, nil
	}
	ctxt.OpenFile = func(p string) (io.ReadCloser, error) {
		b, ok := tree.Get(rel(p))
		if !ok {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	return ctxt
}

type fileInfo struct {
	name string
	size int64
}

func (f fileInfo) Name() string       { return f.name }
func (f fileInfo) Size() int64        { return f.size }
func (f fileInfo) Mode() fs.FileMode  { return 0o444 }
func (f fileInfo) ModTime() time.Time { return time.Time{} }
func (f fileInfo) IsDir() bool        { return false }
func (f fileInfo) Sys() any           { return nil }

// deprecation returns the "Deprecated:" paragraph of a package doc
// comment (the convention gopls and staticcheck read), or "".
func deprecation(docText string) string {
	for _, para := range strings.Split(docText, "\n\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(para), "Deprecated:"); ok {
			return strings.Join(strings.Fields(rest), " ")
		}
	}
	return ""
}
