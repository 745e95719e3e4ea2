package rust

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Limits on reading a local crate directory.
const (
	maxLocalEntries = 5000
	maxLocalBytes   = 32 << 20
	maxSourceDirs   = 20000 // entries of a directory source listed to find a crate
)

// cargoHome is where Cargo keeps its registry sources.
func (s *Source) cargoHome() string {
	if s.CargoHome != "" {
		return s.CargoHome
	}
	if h := os.Getenv("CARGO_HOME"); h != "" {
		return h
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cargo")
	}
	return ""
}

// describeLocal documents the version of name the project pins (Cargo.lock,
// or an exact version) from a copy on disk, with no request to crates.io:
// the directory source or local registry that replaces crates.io in the
// project's Cargo configuration (cargo vendor, Debian's
// /usr/share/cargo/registry), a vendor/ directory beside Cargo.lock, or
// Cargo's unpacked registry sources. Without a pinned version a directory
// source's highest version is read. It returns nil, and why when a local
// copy was expected but could not be read, when there is none.
func (s *Source) describeLocal(ctx context.Context, name string, req Request) (*model.Package, string) {
	version, how := strings.TrimSpace(req.Version), "explicit"
	if version != "" && !isExact(version) {
		return nil, ""
	}
	if version == "" && req.ProjectPath != "" {
		if lock := nearestFile(req.ProjectPath, "Cargo.lock"); lock != "" {
			if data, err := os.ReadFile(lock); err == nil {
				for _, n := range nameVariants(name) {
					if lv, ok := lockfile.CargoVersion(data, n); ok {
						version, how, name = lv, "Cargo.lock", n
						break
					}
				}
			}
		}
	}
	var why []string
	sources := projectSources(req.ProjectPath, s.cargoHome())
	for _, src := range sources {
		tree, where, v, err := findLocal(src, name, version)
		if err != nil {
			why = append(why, err.Error())
			continue
		}
		if tree == nil {
			continue
		}
		resolved := how
		if version == "" {
			resolved = "highest version in " + src.dir
		}
		pkg := &model.Package{
			Name: name, Version: v, Ecosystem: model.Rust, Registry: "local",
			SourceURL: where, ResolvedFrom: resolved,
			Install: fmt.Sprintf("```sh\ncargo add %s@%s\n```", name, v),
		}
		s.document(ctx, pkg, tree, localCrates(req.ProjectPath, sources))
		pkg.Origin = sourceLabel(src, req.ProjectPath) + ": " + pkg.Origin
		var used []string
		seen := map[string]bool{}
		for _, sym := range pkg.Symbols {
			if sym.Package != "" && !seen[sym.Package] {
				seen[sym.Package] = true
				used = append(used, sym.Package)
			}
		}
		if len(used) > 0 {
			pkg.Origin += " + items re-exported from " + strings.Join(used, ", ")
		}
		return pkg, ""
	}
	return nil, strings.Join(why, "; ")
}

// localCrates returns the Scanner.Extern of a crate read from a local
// source: the public API of another crate (a dependency the crate
// re-exports items of, such as thiserror's thiserror-impl) at the version
// the project's Cargo.lock pins (else the highest a directory source
// holds), from the same local sources, scanned once. Its symbols name
// their crate (Package: thiserror-impl@1.0.38).
func localCrates(project string, sources []localSource) func(string) []model.Symbol {
	var lock []byte
	if project != "" {
		if p := nearestFile(project, "Cargo.lock"); p != "" {
			lock, _ = os.ReadFile(p)
		}
	}
	cache := map[string][]model.Symbol{}
	return func(crate string) []model.Symbol {
		if syms, ok := cache[crate]; ok || len(cache) >= 16 || sysroot[crate] {
			return syms
		}
		cache[crate] = nil
		version, name := "", crate
		for _, n := range nameVariants(crate) {
			if v, ok := lockfile.CargoVersion(lock, n); ok {
				version, name = v, n
				break
			}
		}
		for _, src := range sources {
			tree, _, v, err := findLocal(src, name, version)
			if err != nil || tree == nil {
				continue
			}
			man := readManifest(tree)
			lib := man.lib
			if lib == "" {
				lib = "src/lib.rs"
			}
			syms := (&Scanner{Read: tree.Get, MaxSymbols: 1000}).Scan(lib).Symbols
			for i := range syms {
				syms[i].Package = name + "@" + v
			}
			cache[crate] = syms
			return syms
		}
		return nil
	}
}

// sysroot are the crates that come with the Rust toolchain, never in a
// project's sources.
var sysroot = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

// sourceLabel names a local source in an answer's header, with paths
// inside the project relative to it.
func sourceLabel(src localSource, project string) string {
	short := func(p string) string {
		if project == "" {
			return p
		}
		if abs, err := filepath.Abs(project); err == nil {
			if rel, err := filepath.Rel(abs, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(rel)
			}
		}
		return p
	}
	switch src.kind {
	case registrySource:
		return "local Cargo registry sources"
	case archiveSource:
		return "local registry " + short(src.dir) + " (" + short(src.from) + ")"
	}
	return "directory source " + short(src.dir) + " (" + short(src.from) + ")"
}

// nameVariants is name as written and with '-' and '_' swapped, as
// crates.io treats them as the same name.
func nameVariants(name string) []string {
	out := []string{name}
	for _, v := range []string{strings.ReplaceAll(name, "-", "_"), strings.ReplaceAll(name, "_", "-")} {
		if v != out[0] && (len(out) < 2 || v != out[1]) {
			out = append(out, v)
		}
	}
	return out
}

// findLocal looks for name (at version, or its highest version when
// version is "") in one local source. It returns a nil tree when the
// source has no copy, and an error saying why when it has one that cannot
// be read.
func findLocal(src localSource, name, version string) (*archive.Tree, string, string, error) {
	switch src.kind {
	case registrySource:
		if version == "" {
			return nil, "", "", nil
		}
		for _, n := range nameVariants(name) {
			dirs, _ := filepath.Glob(filepath.Join(src.dir, "*", n+"-"+version))
			for _, dir := range dirs {
				tree, err := readCrateDir(dir)
				if err != nil {
					return nil, "", "", err
				}
				return tree, dir, version, nil
			}
		}
	case archiveSource:
		file, v := pickLocal(src.dir, name, version, ".crate")
		if file == "" {
			return nil, "", "", nil
		}
		data, err := os.ReadFile(file)
		if err != nil || len(data) > 64<<20 {
			return nil, "", "", fmt.Errorf("%s: cannot read the crate archive: %v", file, err)
		}
		tree, err := archive.ReadTarGz(data, archive.Options{StripFirst: true, Keep: wanted, Limits: archive.Limits{MaxFileSize: 1 << 20}})
		if err != nil {
			return nil, "", "", fmt.Errorf("%s: %w", file, err)
		}
		return tree, file, v, nil
	default:
		dir, v := pickLocal(src.dir, name, version, "")
		if dir == "" {
			return nil, "", "", otherVersion(src.dir, name, version)
		}
		tree, err := readCrateDir(dir)
		if err != nil {
			return nil, "", "", err
		}
		return tree, dir, v, nil
	}
	return nil, "", "", nil
}

// otherVersion says why a directory source that has copies of name at
// other versions than the one pinned is not read; nil when it has none.
func otherVersion(dir, name, version string) error {
	if version == "" {
		return nil
	}
	var have []string
	for _, n := range nameVariants(name) {
		if id := readPackageID(filepath.Join(dir, n)); id.version != "" && sameCrate(id.name, name) {
			have = append(have, id.version)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, n+"-*"))
		for _, p := range matches {
			if v := strings.TrimPrefix(filepath.Base(p), n+"-"); isExact(v) && len(have) < 10 {
				have = append(have, v)
			}
		}
	}
	if len(have) == 0 {
		return nil
	}
	return fmt.Errorf("%s holds %s %s, not the %s pinned", dir, name, strings.Join(have, ", "), version)
}

// pickLocal finds name in a directory source (ext "", entries <name> or
// <name>-<version> whose Cargo.toml names that version) or a local
// registry (ext ".crate"). With version "" the highest version wins.
func pickLocal(dir, name, version, ext string) (string, string) {
	if version != "" {
		for _, n := range nameVariants(name) {
			for _, cand := range []string{n + "-" + version + ext, n + ext} {
				p := filepath.Join(dir, cand)
				if ext != "" {
					if cand == n+ext {
						continue // a local registry names every archive with its version
					}
					if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
						return p, version
					}
					continue
				}
				if m := readPackageID(p); m.version == version && sameCrate(m.name, name) {
					return p, version
				}
			}
		}
		return "", ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) > maxSourceDirs {
		return "", ""
	}
	var best *semver.Version
	bestPath := ""
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ext)
		if !ok {
			continue
		}
		var v string
		for _, n := range nameVariants(name) {
			if rest, ok := strings.CutPrefix(base, n+"-"); ok && isExact(rest) {
				v = rest
			} else if base == n && ext == "" {
				v = readPackageID(filepath.Join(dir, base)).version
			}
		}
		if ext == "" && v != "" {
			if m := readPackageID(filepath.Join(dir, e.Name())); !sameCrate(m.name, name) || m.version != v {
				continue
			}
		}
		sv, err := semver.NewVersion(v)
		if err != nil {
			continue
		}
		// a release wins over any pre-release, then the higher version
		if better := best == nil || (sv.Prerelease() == "") != (best.Prerelease() == "") && sv.Prerelease() == "" ||
			(sv.Prerelease() == "") == (best.Prerelease() == "") && sv.GreaterThan(best); better {
			best, bestPath = sv, filepath.Join(dir, e.Name())
		}
	}
	if best == nil {
		return "", ""
	}
	return bestPath, best.Original()
}

func sameCrate(a, b string) bool {
	return a != "" && strings.ReplaceAll(a, "-", "_") == strings.ReplaceAll(b, "-", "_")
}

// packageID is the [package] name and version of a Cargo.toml.
type packageID struct{ name, version string }

// readPackageID reads the [package] name and version of the crate in dir.
func readPackageID(dir string) packageID {
	var id packageID
	data, err := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	if err != nil || len(data) > 1<<20 {
		return id
	}
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[] ")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || table != "package" {
			continue
		}
		val, _ := tomlString(strings.TrimSpace(v))
		switch strings.TrimSpace(k) {
		case "name":
			id.name = val
		case "version":
			id.version = val
		}
	}
	return id
}

// readCrateDir reads the files pkgdocs uses (see wanted) from an unpacked
// crate within limits. The crate directory may itself be a symbolic link
// (a vendor directory of links, a Cargo home pointing at Debian's
// packages); links inside it are not followed.
func readCrateDir(dir string) (*archive.Tree, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if st, err := os.Stat(filepath.Join(root, "Cargo.toml")); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s holds no Cargo.toml", dir)
	}
	files := map[string][]byte{}
	var total int64
	entries, links := 0, 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if entries++; entries > maxLocalEntries {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "target" || d.Name() == "debian") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 && wanted(rel) {
			links++
		}
		info, err := d.Info()
		if !d.Type().IsRegular() || !wanted(rel) || err != nil || info.Size() > 1<<20 || total+info.Size() > maxLocalBytes {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			files[rel] = data
			total += int64(len(data))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if !hasSource(files) {
		why := "no .rs files under src/"
		if links > 0 {
			why = fmt.Sprintf("its %d source files are symbolic links, which are not followed", links)
		}
		return nil, fmt.Errorf("%s could not be read: %s", dir, why)
	}
	return archive.FromFiles(files), nil
}

func hasSource(files map[string][]byte) bool {
	for n := range files {
		if strings.HasSuffix(n, ".rs") {
			return true
		}
	}
	return false
}
