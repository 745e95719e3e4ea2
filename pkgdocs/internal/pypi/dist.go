package pypi

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
)

// distFile is one downloadable file of a release.
type distFile struct {
	Filename string
	URL      string
	SHA256   string
	Yanked   bool
}

// distScore ranks files: pure-Python wheels, other wheels, sdists.
func distScore(name string) int {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, "-none-any.whl"):
		return 3
	case strings.HasSuffix(lower, ".whl"):
		return 2
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".zip"):
		return 1
	}
	return 0
}

// pickDist chooses the file to read, preferring unyanked ones.
func pickDist(files []distFile) (distFile, bool) {
	best, bestScore := distFile{}, 0
	for _, f := range files {
		s := distScore(f.Filename)
		if !f.Yanked {
			s += 10
		}
		if distScore(f.Filename) > 0 && s > bestScore {
			best, bestScore = f, s
		}
	}
	return best, bestScore > 0
}

// keepDistFile selects the files read from a wheel or sdist.
func keepDistFile(name string) bool {
	base := path.Base(name)
	switch {
	case base == "METADATA" || base == "PKG-INFO" || base == "top_level.txt":
		return true
	case strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi"):
		return !skippedPath(name)
	}
	return false
}

// privatePath reports a module users are not meant to import (a path
// component starting with "_", other than __init__): read for what public
// modules re-export from it, never listed under its own name.
func privatePath(name string) bool {
	for _, p := range strings.Split(name, "/") {
		stem := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
		if strings.HasPrefix(stem, "_") && stem != "__init__" {
			return true
		}
	}
	return false
}

var skipDirs = map[string]bool{
	"tests": true, "test": true, "testing": true, "docs": true, "doc": true, "examples": true, "example": true,
	"benchmarks": true, "bench": true, "scripts": true, "tools": true, "build": true, "site-packages": true,
}

var skipRootModules = map[string]bool{"setup": true, "conftest": true, "noxfile": true, "fabfile": true, "tasks": true, "manage": true}

// skippedPath reports tests, docs and scripts.
func skippedPath(name string) bool {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		stem := strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
		last := i == len(parts)-1
		switch {
		case !last && skipDirs[p]:
			return true
		case stem == "__main__":
			return true
		case last && (strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test")):
			return true
		}
	}
	return false
}

// readDist unpacks a wheel (zip) or sdist (tar.gz or zip with one root
// directory), telling rep of each file read.
func readDist(data []byte, filename string, rep *progress.Reporter) (*archive.Tree, error) {
	opts := archive.Options{Keep: keepDistFile, Limits: archive.Limits{MaxFileSize: 2 << 20, MaxTotal: 64 << 20, MaxEntries: 50000}, Progress: rep}
	lower := strings.ToLower(filename)
	switch {
	case strings.HasSuffix(lower, ".whl"):
		return archive.ReadZip(data, opts)
	case strings.HasSuffix(lower, ".tar.gz"):
		opts.StripFirst = true
		return archive.ReadTarGz(data, opts)
	case strings.HasSuffix(lower, ".zip"):
		opts.StripFirst = true
		return archive.ReadZip(data, opts)
	}
	return nil, fmt.Errorf("unsupported distribution file %s", filename)
}

// distInfo is what a distribution tree offers.
type distInfo struct {
	meta      Metadata
	hasMeta   bool
	symbols   []model.Symbol
	modules   []string
	read      []string // the files the answer depends on: public modules and the private ones they import from
	extBases  []externalBase
	truncated bool
}

type modFile struct {
	file, module string
	depth        int
	private      bool // see privatePath
}

// Limits on reading one distribution: modules and bytes scanned, and
// symbols listed (inherited members are counted apart).
const (
	maxModules   = 1000
	maxScanBytes = 8 << 20
	maxSymbols   = 4000
)

// fileSource is a distribution's files: an unpacked wheel or sdist, or an
// installation read from disk as its files are needed.
type fileSource interface {
	Names() []string // sorted
	Get(name string) ([]byte, bool)
}

// inspectDist reads metadata and the public API of a distribution.
func inspectDist(tree fileSource) distInfo {
	var info distInfo
	var top map[string]bool
	for _, n := range tree.Names() {
		dir, base := path.Split(n)
		switch {
		case base == "METADATA" && strings.HasSuffix(strings.TrimSuffix(dir, "/"), ".dist-info") && strings.Count(n, "/") == 1,
			base == "PKG-INFO" && (dir == "" || !info.hasMeta && strings.HasSuffix(strings.TrimSuffix(dir, "/"), ".egg-info")):
			if data, ok := tree.Get(n); ok {
				info.meta, info.hasMeta = ParseMetadata(data), true
			}
		case base == "top_level.txt" && strings.HasSuffix(strings.TrimSuffix(dir, "/"), ".dist-info"):
			data, _ := tree.Get(n)
			top = map[string]bool{}
			for _, l := range strings.Fields(string(data)) {
				top[l] = true
			}
		}
	}
	files := moduleFiles(tree, top)
	// The package named like the distribution comes first among packages
	// as deep: attrs' attrs.define, not the older attr.define.
	own := strings.ReplaceAll(Normalize(info.meta.Name), "-", "_")
	sort.SliceStable(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return rootOf(a.module) == own && rootOf(b.module) != own
	})
	var public []modFile
	for _, f := range files {
		if !f.private {
			public = append(public, f)
		}
	}
	r := newResolver(tree, files)
	info.symbols, info.modules = r.symbols(public)
	info.extBases = r.extBases
	info.truncated = r.truncated
	for m := range r.used {
		info.read = append(info.read, r.mods[m].f.file)
	}
	sort.Strings(info.read)
	return info
}

// rootOf returns the top-level package of a module name.
func rootOf(module string) string {
	root, _, _ := strings.Cut(module, ".")
	return root
}

// moduleFiles lists importable public modules, shallow first; a .pyi stub
// replaces the .py of the same module.
func moduleFiles(tree fileSource, top map[string]bool) []modFile {
	byModule := map[string]modFile{}
	for _, n := range tree.Names() {
		if !strings.HasSuffix(n, ".py") && !strings.HasSuffix(n, ".pyi") || skippedPath(n) {
			continue
		}
		rel := strings.TrimPrefix(n, "src/")
		parts := strings.Split(rel, "/")
		first := parts[0]
		if strings.HasSuffix(first, ".dist-info") || strings.HasSuffix(first, ".data") || strings.HasSuffix(first, ".egg-info") {
			continue
		}
		stem := strings.TrimSuffix(strings.TrimSuffix(parts[len(parts)-1], ".pyi"), ".py")
		if len(parts) == 1 && skipRootModules[stem] {
			continue
		}
		root := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(first, ".pyi"), ".py"), "-stubs")
		if top != nil && !top[root] && !top[first] {
			continue
		}
		parts[0] = root
		parts[len(parts)-1] = stem
		if stem == "__init__" {
			parts = parts[:len(parts)-1]
		}
		if len(parts) == 0 || strings.ContainsAny(strings.Join(parts, ""), "-. ") {
			continue // not importable
		}
		mod := strings.Join(parts, ".")
		f := modFile{file: n, module: mod, depth: len(parts), private: privatePath(rel)}
		if prev, ok := byModule[mod]; !ok || strings.HasSuffix(n, ".pyi") && !strings.HasSuffix(prev.file, ".pyi") {
			byModule[mod] = f
		}
	}
	out := make([]modFile, 0, len(byModule))
	for _, f := range byModule {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].depth != out[j].depth {
			return out[i].depth < out[j].depth
		}
		return out[i].module < out[j].module
	})
	return out
}

// balanceFences closes a code fence a docstring leaves open, so that no
// answer ends inside one.
func balanceFences(doc string) string {
	if render.FencesBalanced(doc) {
		return doc
	}
	return doc + "\n```"
}
