package gosrc

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
	"github.com/gomcp/sdk/pkgdocs/internal/projectdir"
	"github.com/gomcp/sdk/pkgdocs/internal/search"
)

// Source documents Go packages.
type Source struct {
	Proxy  *Proxy
	GOROOT string // standard library source; "" means runtime.GOROOT()
	MaxZip int64  // largest module zip read; default 500 MiB (the x/mod/zip limit)

	pending sync.Map // *model.Package -> extracted, from extract to Describe
}

// Request names the package to document.
type Request struct {
	ImportPath  string
	Version     string // "" means the project's go.mod, else latest
	ProjectPath string // directory holding (or below) a go.mod; optional
	Target      Target
}

// Resolved says which module version provides a package.
type Resolved struct {
	Module, Version, How string
	// Sum is the h1: hash the project's go.sum records for the module
	// zip, or ""; when set, the zip must match it.
	Sum string
}

// Describe documents req.ImportPath, with the methods its types get from
// embedded types of other packages (embedded.go).
func (s *Source) Describe(ctx context.Context, req Request) (*model.Package, error) {
	ctx = withZipMemo(ctx) // the embedded types' packages are often in the same zip
	pkg, err := s.describe(ctx, req)
	if err != nil {
		return nil, err
	}
	if x, ok := s.pending.LoadAndDelete(pkg); ok {
		s.promoteAcross(ctx, pkg, x.(extracted), req)
	}
	return pkg, nil
}

// describe documents req.ImportPath from its own package alone.
func (s *Source) describe(ctx context.Context, req Request) (*model.Package, error) {
	p := strings.Trim(strings.TrimSpace(req.ImportPath), "/")
	if err := module.CheckImportPath(p); err != nil {
		return nil, fmt.Errorf("invalid import path %q: %w", req.ImportPath, err)
	}
	if isStd(p) {
		return s.describeStd(p, req)
	}
	if req.Version == "" && req.ProjectPath != "" {
		if pkg, res, err := s.fromProject(ctx, p, req); err != nil || pkg != nil {
			return pkg, err
		} else if res != nil {
			return s.describeModule(ctx, p, []Resolved{*res}, req.Target)
		}
	}
	res, err := s.resolve(ctx, p, req.Version)
	if err != nil {
		return nil, err
	}
	return s.describeModule(ctx, p, res, req.Target)
}

// isStd reports a standard-library path: its first element has no dot.
func isStd(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// candidates returns p and its parent paths, longest first.
func candidates(p string) []string {
	var out []string
	for c := p; c != "." && c != "/" && c != ""; c = path.Dir(c) {
		if module.CheckPath(c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// resolve finds the modules that may provide p, longest path first, each at
// the version asked for (or its latest).
func (s *Source) resolve(ctx context.Context, p, version string) ([]Resolved, error) {
	cands := candidates(p)
	if len(cands) == 0 {
		return nil, fmt.Errorf("no valid module path is a prefix of %q", p)
	}
	results := make([]Resolved, len(cands))
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if version != "" {
				v, err := s.Proxy.Info(ctx, c, version)
				results[i], errs[i] = Resolved{Module: c, Version: v, How: "explicit"}, err
				return
			}
			v, how, err := s.Proxy.Latest(ctx, c)
			results[i], errs[i] = Resolved{Module: c, Version: v, How: how}, err
		}()
	}
	wg.Wait()
	var out []Resolved
	var firstErr error
	for i := range cands {
		if errs[i] == nil {
			out = append(out, results[i])
		} else if firstErr == nil && !notHere(errs[i]) {
			firstErr = errs[i]
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	if firstErr != nil {
		return nil, fmt.Errorf("looking up the module for %s: %w", p, firstErr)
	}
	if version != "" {
		for _, c := range cands {
			if list, err := s.Proxy.List(ctx, c); err == nil && len(list) > 0 {
				return nil, fmt.Errorf("module %s has no version %s; nearest: %s: %w", c, version, strings.Join(nearestVersions(list, version), ", "), ErrVersionUnknown)
			}
		}
	}
	return nil, fmt.Errorf("no module provides package %s (tried %s on the module proxy): %w", p, strings.Join(cands, ", "), ErrNotFound)
}

// notHere reports a proxy answer meaning "no such module or version here":
// 404 and 410 by the protocol, and the 400/403 proxy.golang.org gives for
// paths it refuses to look up.
func notHere(err error) bool {
	var se *fetch.StatusError
	if errors.As(err, &se) {
		return se.Code == 400 || se.Code == 403 || se.Code == 404 || se.Code == 410
	}
	return errors.Is(err, fetch.ErrNotFound)
}

func (s *Source) describeModule(ctx context.Context, p string, mods []Resolved, tgt Target) (*model.Package, error) {
	limit := s.MaxZip
	if limit <= 0 {
		limit = 500 << 20
	}
	var lastTree *archive.Tree
	var lastMod Resolved
	var lastDirs []string
	for _, m := range mods {
		dir := strings.TrimPrefix(strings.TrimPrefix(p, m.Module), "/")
		pkg, found, dirs, err := s.describeExtracted(m, p, dir, tgt)
		if err != nil || found {
			return pkg, err
		}
		data, zipURL, err := zipOnce(ctx, s.Proxy, m.Module, m.Version, limit)
		if err != nil && dirs != nil {
			// Extracted in the module cache without the package, and no
			// zip to look further in: the extracted tree is the module.
			lastTree, lastMod, lastDirs = nil, m, dirs
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("downloading %s@%s: %w", m.Module, m.Version, err)
		}
		if m.Sum != "" {
			if err := verifyZip(data, m.Sum); err != nil {
				return nil, fmt.Errorf("%s@%s from %s: %w", m.Module, m.Version, hostOf(zipURL), err)
			}
		}
		tree, err := archive.ReadZip(data, archive.Options{
			Prefix: m.Module + "@" + m.Version + "/",
			Keep: func(name string) bool {
				d := path.Dir(name)
				if d == "." {
					d = ""
				}
				return d == dir && (strings.HasSuffix(name, ".go") || strings.HasPrefix(path.Base(name), "README"))
			},
			Limits:   archive.Limits{MaxEntries: 100000, MaxTotal: limit},
			Progress: progress.FromContext(ctx),
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s@%s: %w", m.Module, m.Version, err)
		}
		if !hasGoFiles(tree, dir) {
			lastTree, lastMod, lastDirs = tree, m, packageDirs(tree, m.Module)
			continue
		}
		pkg, err = s.extract(tree, dir, p, tgt, m.Module)
		if err != nil {
			return nil, err
		}
		pkg.Version = m.Version
		pkg.Registry = hostOf(zipURL)
		pkg.SourceURL = zipURL
		pkg.ResolvedFrom = m.How
		t := tgt.withDefaults()
		pkg.Origin = fmt.Sprintf("module %s zip · go/doc for %s/%s", m.Module, t.GOOS, t.GOARCH)
		if m.Sum != "" {
			pkg.Origin = fmt.Sprintf("module %s zip (checksum matches go.sum) · go/doc for %s/%s", m.Module, t.GOOS, t.GOARCH)
		}
		pkg.Install = fmt.Sprintf("```sh\ngo get %s@%s\n```\n\n```go\nimport %q\n```", p, m.Version, p)
		return pkg, nil
	}
	msg := fmt.Sprintf("package %s not found", p)
	if lastTree != nil || lastDirs != nil {
		msg = fmt.Sprintf("module %s@%s has no package %s", lastMod.Module, lastMod.Version, p)
		if sugg := suggestPackages(lastDirs, lastMod.Module, p); len(sugg) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sugg, " or "))
		}
	}
	return nil, fmt.Errorf("%s: %w", msg, ErrNotFound)
}

// suggestPackages returns up to three of a module's packages for a path
// it does not provide: asked for a module whose root is no package, the
// package the module is named after comes first (go.mongodb.org/mongo-driver/v2
// → .../mongo, google.golang.org/protobuf → .../proto), then the closest
// paths.
func suggestPackages(dirs []string, mod, p string) []string {
	var out []string
	if p == mod {
		prefix, _, _ := module.SplitPathVersion(mod)
		name := path.Base(prefix)
		for _, d := range dirs {
			if child := strings.TrimPrefix(d, mod+"/"); child != d && !strings.Contains(child, "/") && len(child) > 2 && strings.Contains(name, child) {
				out = append(out, d)
			}
		}
		out = out[:min(len(out), 1)]
	}
	if !strings.Contains(p, "/internal") {
		var public []string // internal packages cannot be imported from outside
		for _, d := range dirs {
			if !strings.Contains(d, "/internal/") && !strings.HasSuffix(d, "/internal") {
				public = append(public, d)
			}
		}
		dirs = public
	}
	for _, s := range search.Suggest(dirs, p, 3) {
		if len(out) < 3 && s != p && (len(out) == 0 || s != out[0]) {
			out = append(out, s)
		}
	}
	return out
}

func hasGoFiles(tree *archive.Tree, dir string) bool {
	for _, n := range tree.Names() {
		d := path.Dir(n)
		if d == "." {
			d = ""
		}
		if d == dir && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}

// packageDirs lists the import paths of directories with Go files.
func packageDirs(tree *archive.Tree, mod string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range tree.Names() {
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.Contains(n, "testdata/") {
			continue
		}
		d := path.Dir(n)
		ip := mod
		if d != "." {
			ip = mod + "/" + d
		}
		if !seen[ip] {
			seen[ip] = true
			out = append(out, ip)
		}
	}
	sort.Strings(out)
	return out
}

func hostOf(u string) string {
	if pu, err := url.Parse(u); err == nil {
		if pu.Scheme == "file" {
			return "local module cache"
		}
		return pu.Host
	}
	return ""
}

func (s *Source) describeStd(p string, req Request) (*model.Package, error) {
	root := s.GOROOT
	if root == "" {
		//lint:ignore SA1019 with no GOROOT configured, the standard library read is that of $GOROOT or else of the toolchain pkgdocs was built with; not found there, the answer says where it looked
		root = runtime.GOROOT()
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(p))
	files, err := readGoDir(dir)
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("standard library package %s not found in %s: %w", p, root, ErrNotFound)
	}
	pkg, err := s.extract(archive.FromFiles(files), "", p, req.Target, "")
	if err != nil {
		return nil, err
	}
	pkg.Version = goVersion(root)
	pkg.Registry = "local GOROOT"
	pkg.SourceURL = dir
	pkg.ResolvedFrom = "local toolchain"
	t := req.Target.withDefaults()
	pkg.Origin = fmt.Sprintf("standard library · go/doc for %s/%s", t.GOOS, t.GOARCH)
	pkg.Install = fmt.Sprintf("```go\nimport %q\n```", p)
	if req.Version != "" && req.Version != pkg.Version {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("Asked for %s; this describes the local toolchain's %s.", req.Version, pkg.Version))
	}
	return pkg, nil
}

// readGoDir reads the Go files and README of one directory (not recursive).
func readGoDir(dir string) (map[string][]byte, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range ents {
		if !e.Type().IsRegular() || !(strings.HasSuffix(e.Name(), ".go") || strings.HasPrefix(e.Name(), "README")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}

func goVersion(root string) string {
	if b, err := os.ReadFile(filepath.Join(root, "VERSION")); err == nil {
		if line, _, _ := strings.Cut(string(b), "\n"); strings.HasPrefix(line, "go") {
			return strings.TrimSpace(line)
		}
	}
	return runtime.Version()
}

// fromProject uses the go.mod at or above req.ProjectPath: a package of the
// main module is read from disk; a required module is resolved at the
// required version (honouring replace directives).
func (s *Source) fromProject(ctx context.Context, p string, req Request) (*model.Package, *Resolved, error) {
	gomod, data, err := findGoMod(req.ProjectPath)
	if err != nil {
		return nil, nil, err
	}
	if data == nil {
		return nil, nil, nil
	}
	mf, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", gomod, err)
	}
	root := filepath.Dir(gomod)
	if mf.Module != nil && within(p, mf.Module.Mod.Path) {
		return s.describeLocal(p, filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(p, mf.Module.Mod.Path))), "main module "+gomod, req.Target)
	}
	var best *modfile.Require
	for _, r := range mf.Require {
		if within(p, r.Mod.Path) && (best == nil || len(r.Mod.Path) > len(best.Mod.Path)) {
			best = r
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	if version, ok := vendoredVersion(root, mf, best.Mod.Path); ok {
		if pkg, found, err := s.describeVendored(p, root, version, req.Target); found || err != nil {
			return pkg, nil, err
		}
	}
	for _, rep := range mf.Replace {
		if rep.Old.Path != best.Mod.Path || (rep.Old.Version != "" && rep.Old.Version != best.Mod.Version) {
			continue
		}
		if rep.New.Version == "" { // local directory replacement
			dir := rep.New.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			return s.describeLocal(p, filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, best.Mod.Path))), "replace in "+gomod, req.Target)
		}
		return nil, &Resolved{rep.New.Path, rep.New.Version, "go.mod replace", goSumHash(gomod, rep.New.Path, rep.New.Version)}, nil
	}
	return nil, &Resolved{best.Mod.Path, best.Mod.Version, "go.mod", goSumHash(gomod, best.Mod.Path, best.Mod.Version)}, nil
}

func within(p, mod string) bool {
	return p == mod || strings.HasPrefix(p, mod+"/")
}

// findGoMod returns the nearest go.mod at or above dir, looking no higher
// than the repository root and never in the home directory above the
// project or the filesystem root (projectdir.Ancestors).
func findGoMod(dir string) (string, []byte, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return "", nil, fmt.Errorf("projectPath %q is not a directory", dir)
	}
	for _, d := range projectdir.Ancestors(dir) {
		f := filepath.Join(d, "go.mod")
		if data, err := os.ReadFile(f); err == nil {
			return f, data, nil
		}
	}
	return "", nil, nil
}

func (s *Source) describeLocal(p, dir, how string, tgt Target) (*model.Package, *Resolved, error) {
	files, err := readGoDir(dir)
	if err != nil || len(files) == 0 {
		return nil, nil, fmt.Errorf("package %s: no Go files in %s: %w", p, dir, ErrNotFound)
	}
	pkg, err := s.extract(archive.FromFiles(files), "", p, tgt, "")
	if err != nil {
		return nil, nil, err
	}
	pkg.Version = "local"
	pkg.Registry = "local directory"
	pkg.SourceURL = dir
	pkg.ResolvedFrom = how
	t := tgt.withDefaults()
	pkg.Origin = fmt.Sprintf("source files · go/doc for %s/%s", t.GOOS, t.GOARCH)
	pkg.Install = fmt.Sprintf("```go\nimport %q\n```", p)
	return pkg, nil, nil
}
