package npm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Bounds on following declarations into other packages.
const (
	maxFollowed    = 4 // dependency packages read per package
	maxFollowDepth = 3 // vue -> @vue/runtime-dom -> @vue/runtime-core -> @vue/reactivity, no further
	// maxFollowedFile bounds the size of a declaration file read from a
	// followed package: larger ones (csstype's 950 KiB of CSS properties)
	// cost more to parse than they tell about the package described.
	maxFollowedFile = 512 << 10
)

// mountDir is where dependency packages appear in a typeSet's file
// namespace, as they would in an installation.
const mountDir = "node_modules/"

// typeSet is one package's declaration files together with those of the
// dependency packages its declarations lead into (re-exports, imports of
// the interfaces they extend), each mounted under node_modules/<name>/.
type typeSet struct {
	root    *archive.Tree
	name    string
	entry   string
	exports json.RawMessage
	deps    map[string]string // the package's dependencies and their ranges
	mounts  map[string]*mount
	wanted  map[string]wantedDep // packages asked for, not mounted yet
	failed  map[string]bool      // packages that could not be read
	parsed  map[string]*dtsFile  // files parsed by earlier scans
}

// mount is a dependency package read for its declarations.
type mount struct {
	name, version string
	tree          *archive.Tree
	entry         string
	deps          map[string]string
	depth         int
	local         bool // read from the project's node_modules
}

// wantedDep is a dependency package a declaration leads into.
type wantedDep struct {
	name, rng string
	depth     int
}

func newTypeSet(tree *archive.Tree, pj packageJSON, entry string) *typeSet {
	return &typeSet{root: tree, name: pj.Name, entry: entry, exports: pj.Exports, deps: pj.dependencies(),
		mounts: map[string]*mount{}, wanted: map[string]wantedDep{}, failed: map[string]bool{}, parsed: map[string]*dtsFile{}}
}

// dependencies returns dependencies and peer dependencies with their
// ranges.
func (pj packageJSON) dependencies() map[string]string {
	out := map[string]string{}
	for k, v := range pj.PeerDependencies {
		out[k] = v
	}
	for k, v := range pj.Dependencies {
		out[k] = v
	}
	return out
}

// scan reads the package's exported declarations, following into the
// mounted dependencies, and marks each symbol declared in one of them with
// the package it comes from.
func (t *typeSet) scan() []model.Symbol {
	sc := &Scanner{Read: t.read, DefaultName: defaultName(t.name), Self: selfResolver(t.root, t.name, t.exports), External: t.external, parsedBefore: t.parsed}
	syms := sc.Scan(t.entry)
	for i := range syms {
		if name, file, ok := t.split(syms[i].File); ok {
			m := t.mounts[name]
			syms[i].Package, syms[i].File = m.name+"@"+m.version, file
		}
	}
	return syms
}

// split maps a mounted path to its package and the file inside it.
func (t *typeSet) split(p string) (pkg, file string, ok bool) {
	rest, ok := strings.CutPrefix(p, mountDir)
	if !ok {
		return "", "", false
	}
	pkg, file = packageOf(rest)
	if t.mounts[pkg] == nil || file == "" {
		return "", "", false
	}
	return pkg, file, true
}

// packageOf splits "name/sub/path" or "@scope/name/sub/path".
func packageOf(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
		return name, sub
	}
	name, sub, _ = strings.Cut(spec, "/")
	return name, sub
}

func (t *typeSet) read(p string) ([]byte, bool) {
	if pkg, file, ok := t.split(p); ok {
		data, ok := t.mounts[pkg].tree.Get(file)
		if len(data) > maxFollowedFile {
			return nil, false
		}
		return data, ok
	}
	if strings.HasPrefix(p, mountDir) {
		return nil, false
	}
	return t.root.Get(p)
}

// external resolves a specifier naming another package, from a file of the
// package or of a mounted one, to a mounted declaration file. A package
// that is a declared dependency of the importing package (as itself or as
// its @types package) and not mounted yet is recorded as wanted.
func (t *typeSet) external(from, spec string) string {
	name, sub := packageOf(spec)
	if strings.HasPrefix(spec, "node:") || ValidateName(name) != nil || strings.Contains("/"+sub+"/", "/../") {
		return ""
	}
	deps, depth := t.deps, 1
	if pkg, _, ok := t.split(from); ok {
		deps, depth = t.mounts[pkg].deps, t.mounts[pkg].depth+1
	}
	for _, cand := range []string{name, TypesPackage(name)} {
		rng, ok := deps[cand]
		if !ok || cand == t.name {
			continue
		}
		if m := t.mounts[cand]; m != nil {
			if sub == "" {
				return mountDir + cand + "/" + m.entry
			}
			return resolveDTS(mountDir+cand+"/index.d.ts", "./"+sub, t.read)
		}
		if depth <= maxFollowDepth && !t.failed[cand] {
			if _, seen := t.wanted[cand]; !seen {
				t.wanted[cand] = wantedDep{name: cand, rng: rng, depth: depth}
			}
		}
		return ""
	}
	return ""
}

// followTypes mounts the dependency packages the declarations lead into,
// read by load, within the bounds, and scans again; transient failures
// become notes.
func followTypes(t *typeSet, pkg *model.Package, load func(wantedDep) (*mount, error)) {
	if len(t.wanted) == 0 {
		return
	}
	var skipped []string
	for round := 0; round < maxFollowDepth && len(t.wanted) > 0; round++ {
		var names []string
		for n := range t.wanted {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			w := t.wanted[n]
			delete(t.wanted, n)
			if len(t.mounts) >= maxFollowed {
				t.failed[n] = true
				skipped = append(skipped, n)
				continue
			}
			m, err := load(w)
			if err != nil {
				// A package that does not exist, has no matching version
				// or ships no declarations is simply not followed; a
				// transient failure is said, and not cached for long.
				t.failed[n] = true
				if followTransient(err) {
					pkg.Partial = true
					pkg.Notes = append(pkg.Notes, fmt.Sprintf("Declarations from %s could not be read (%v).", n, err))
				}
				continue
			}
			t.mounts[n] = m
		}
		pkg.Symbols = t.scan()
	}
	if len(skipped) > 0 {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("Declarations the package's types lead to in %s were not read: at most %d other packages are followed.", strings.Join(skipped, ", "), maxFollowed))
	}
	var names []string
	for n := range t.mounts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sep := " + "
		if t.mounts[n].local {
			sep = " + installed "
		}
		pkg.Origin += sep + n + "@" + t.mounts[n].version
	}
}

// errNoDeclarations: a followed package ships no TypeScript declarations.
var errNoDeclarations = errors.New("no TypeScript declarations")

// followTransient reports whether following a package failed for a reason
// that may go away (the network), rather than because there is nothing to
// follow.
func followTransient(err error) bool {
	return fetch.IsTransient(err) && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrVersionNotFound) && !errors.Is(err, errNoDeclarations)
}

// mountTypes reads a dependency package's declarations from the
// registry: the highest version in the range the importing package asks
// for.
func (s *Source) mountTypes(ctx context.Context, cfg *Config, w wantedDep) (*mount, error) {
	rng := w.rng
	if _, err := semver.NewConstraint(rng); err != nil {
		rng = "*" // a tag, URL or workspace range: any version will do
	}
	vd, err := s.resolveRange(ctx, cfg, cfg.Registry(w.name), w.name, rng)
	if err != nil {
		return nil, err
	}
	if vd.Name == "" {
		vd.Name = w.name
	}
	tree, err := s.tarball(ctx, cfg, vd)
	if err != nil {
		return nil, err
	}
	return mountTree(w, tree, vd.Version)
}

// mountInstalled reads a dependency package's declarations from the
// copy installed under the project.
func mountInstalled(project string, w wantedDep) (*mount, error) {
	dir := installedDir(project, w.name)
	if dir == "" {
		return nil, fmt.Errorf("%s is not installed: %w", w.name, ErrNotFound)
	}
	tree, err := readInstalled(dir, wanted)
	if err != nil {
		return nil, err
	}
	var v struct {
		Version string `json:"version"`
	}
	data, _ := tree.Get("package.json")
	_ = json.Unmarshal(data, &v)
	m, err := mountTree(w, tree, v.Version)
	if m != nil {
		m.local = true
	}
	return m, err
}

// mountTree finds a dependency package's declaration entry point.
func mountTree(w wantedDep, tree *archive.Tree, version string) (*mount, error) {
	var pj packageJSON
	if data, ok := tree.Get("package.json"); ok {
		_ = json.Unmarshal(data, &pj)
	}
	entry, fromExports := typesEntry(tree, pj.Types, pj.Typings, pj.Main, pj.Exports)
	if entry == "" {
		return nil, fmt.Errorf("%s@%s: %w", w.name, version, errNoDeclarations)
	}
	if !fromExports {
		entry = applyTypesVersions(entry, orderedTypesVersions(pj.TypesVersions), tree.Has)
	}
	if data, _ := tree.Get(entry); len(data) > maxFollowedFile {
		return nil, fmt.Errorf("%s@%s: %s is %d KiB: %w", w.name, version, entry, len(data)>>10, errNoDeclarations)
	}
	return &mount{name: w.name, version: version, tree: tree, entry: path.Clean(entry), deps: pj.dependencies(), depth: w.depth}, nil
}
