package rust

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Limits on reading a local crate directory.
const (
	maxLocalEntries = 5000
	maxLocalBytes   = 32 << 20
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
// or an exact version) from Cargo's unpacked sources in
// $CARGO_HOME/registry/src, with no request to crates.io. It returns nil
// when there is no such local copy.
func (s *Source) describeLocal(ctx context.Context, name string, req Request) *model.Package {
	version, how := strings.TrimSpace(req.Version), "explicit"
	if version != "" && !isExact(version) {
		return nil
	}
	if version == "" && req.ProjectPath != "" {
		if lock := nearestFile(req.ProjectPath, "Cargo.lock"); lock != "" {
			if data, err := os.ReadFile(lock); err == nil {
				for _, n := range []string{name, strings.ReplaceAll(name, "-", "_"), strings.ReplaceAll(name, "_", "-")} {
					if lv, ok := lockfile.CargoVersion(data, n); ok {
						version, how, name = lv, "Cargo.lock", n
						break
					}
				}
			}
		}
	}
	home := s.cargoHome()
	if version == "" || home == "" {
		return nil
	}
	dirs, _ := filepath.Glob(filepath.Join(home, "registry", "src", "*", name+"-"+version))
	for _, dir := range dirs {
		tree, err := readCrateDir(dir)
		if err != nil {
			continue
		}
		pkg := &model.Package{
			Name: name, Version: version, Ecosystem: model.Rust, Registry: "local",
			SourceURL: dir, ResolvedFrom: how,
			Install: fmt.Sprintf("```sh\ncargo add %s@%s\n```", name, version),
		}
		s.document(ctx, pkg, tree)
		pkg.Origin = "local Cargo registry sources: " + pkg.Origin
		return pkg
	}
	return nil
}

// readCrateDir reads the files pkgdocs uses (see wanted) from an unpacked
// crate, without following symbolic links, within limits.
func readCrateDir(dir string) (*archive.Tree, error) {
	if st, err := os.Lstat(filepath.Join(dir, "Cargo.toml")); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: no Cargo.toml", dir)
	}
	files := map[string][]byte{}
	var total int64
	entries := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if entries++; entries > maxLocalEntries {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "target") {
				return filepath.SkipDir
			}
			return nil
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
		return nil, err
	}
	return archive.FromFiles(files), nil
}
