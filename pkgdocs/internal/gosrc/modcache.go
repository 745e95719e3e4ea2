package gosrc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// The module cache holds each module version twice: the zip the go command
// downloaded (cache/download/<module>/@v/<version>.zip, with the checksum it
// verified in <version>.ziphash) and the tree it extracted from that zip
// (<module>@<version>/), which is what builds read. pkgdocs reads the
// extracted tree when it is there: it needs no unzipping and no hashing of
// the whole module, and it is there even when the download cache was
// pruned (rm -rf $GOMODCACHE/cache, as container images do) or never
// copied.

// extractedDir returns the directory the go command extracted mod@version
// into, when it exists.
func (p *Proxy) extractedDir(mod, version string) (string, bool) {
	if p.modRoot == "" {
		return "", false
	}
	em, err1 := module.EscapePath(mod)
	ev, err2 := module.EscapeVersion(version)
	if err1 != nil || err2 != nil {
		return "", false
	}
	dir := filepath.Join(p.modRoot, filepath.FromSlash(em)+"@"+ev)
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// extractedVersions lists the versions of mod extracted in the module
// cache, sorted by semver: the versions an offline lookup can answer when
// the download cache holds no @v/list.
func (p *Proxy) extractedVersions(mod string) []string {
	if p.modRoot == "" {
		return nil
	}
	em, err := module.EscapePath(mod)
	if err != nil {
		return nil
	}
	parent, base := path.Split(em)
	ents, err := os.ReadDir(filepath.Join(p.modRoot, filepath.FromSlash(parent)))
	if err != nil {
		return nil
	}
	var vs []string
	for _, e := range ents {
		ev, ok := strings.CutPrefix(e.Name(), base+"@")
		if !ok || !e.IsDir() {
			continue
		}
		if v, err := module.UnescapeVersion(ev); err == nil && semver.IsValid(v) {
			vs = append(vs, v)
		}
	}
	semver.Sort(vs)
	return vs
}

// verifyExtracted checks an extracted module tree against want, the h1:
// hash the project's go.sum records: through the .ziphash the go command
// wrote when it verified the zip it extracted the tree from, or, when the
// download cache has none, by hashing the tree as `go mod verify` does.
func (p *Proxy) verifyExtracted(mod, version, dir, want string) error {
	if want == "" {
		return nil
	}
	em, _ := module.EscapePath(mod)
	ev, _ := module.EscapeVersion(version)
	if p.modCache != "" {
		if b, err := os.ReadFile(filepath.Join(p.modCache, filepath.FromSlash(em), "@v", ev+".ziphash")); err == nil {
			if got := strings.TrimSpace(string(b)); got != want {
				return fmt.Errorf("the module cache records %s for %s@%s, go.sum records %s: %w", got, mod, version, want, ErrChecksumMismatch)
			}
			return nil
		}
	}
	got, err := dirhash.HashDir(dir, mod+"@"+version, dirhash.Hash1)
	if err != nil {
		return fmt.Errorf("hashing %s: %w", dir, err)
	}
	if got != want {
		return fmt.Errorf("%s hashes to %s, go.sum records %s: %w", dir, got, want, ErrChecksumMismatch)
	}
	return nil
}

// describeExtracted documents package p of module m from the tree the go
// command extracted in the module cache. found is false when the cache
// has no such tree, or the tree has no Go files for p (another module may
// provide it); subdirs then lists the tree's packages for a did-you-mean.
func (s *Source) describeExtracted(m Resolved, p, dir string, tgt Target) (pkg *model.Package, found bool, subdirs []string, err error) {
	root, ok := s.Proxy.extractedDir(m.Module, m.Version)
	if !ok {
		return nil, false, nil, nil
	}
	pkgDir := filepath.Join(root, filepath.FromSlash(dir))
	files, err := readGoDir(pkgDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil, fmt.Errorf("reading %s: %w", pkgDir, err)
	}
	if !hasGoFiles(archive.FromFiles(files), "") {
		return nil, false, extractedPackages(root, m.Module), nil
	}
	if err := s.Proxy.verifyExtracted(m.Module, m.Version, root, m.Sum); err != nil {
		return nil, false, nil, fmt.Errorf("%s@%s in the module cache: %w", m.Module, m.Version, err)
	}
	pkg, err = s.extract(archive.FromFiles(files), "", p, tgt, m.Module)
	if err != nil {
		return nil, false, nil, err
	}
	pkg.Version = m.Version
	pkg.Registry = "local module cache"
	pkg.SourceURL = pkgDir
	pkg.ResolvedFrom = m.How
	t := tgt.withDefaults()
	check := ""
	if m.Sum != "" {
		check = ", checksum matches go.sum"
	}
	pkg.Origin = fmt.Sprintf("module %s as extracted by the go command%s · go/doc for %s/%s", m.Module, check, t.GOOS, t.GOARCH)
	pkg.Install = fmt.Sprintf("```sh\ngo get %s@%s\n```\n\n```go\nimport %q\n```", p, m.Version, p)
	return pkg, true, nil, nil
}

// maxListedDirs bounds the walk that lists an extracted module's packages
// for an error message.
const maxListedDirs = 5000

// extractedPackages lists the import paths of the directories with Go
// files in an extracted module tree (not descending into nested modules,
// testdata or hidden directories).
func extractedPackages(root, mod string) []string {
	seen := map[string]bool{}
	var out []string
	visited := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if visited++; visited > maxListedDirs {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		ip := mod
		if d := path.Dir(rel); d != "." {
			ip = mod + "/" + d
		}
		if !seen[ip] {
			seen[ip] = true
			out = append(out, ip)
		}
		return nil
	})
	sort.Strings(out)
	return out
}
