package npm

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Limits on reading an installed package directory.
const (
	maxInstalledEntries = 20000
	maxInstalledBytes   = 64 << 20
	maxInstalledFile    = 2 << 20
)

// readInstalled reads the files pkgdocs uses (those keep selects: wanted
// or wantedJS) from an installed package directory: no symbolic links
// followed, nested node_modules skipped, within the entry and byte limits.
func readInstalled(dir string, keep func(string) bool) (*archive.Tree, error) {
	files := map[string][]byte{}
	var total int64
	entries := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if entries++; entries > maxInstalledEntries {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxInstalledFile || total+info.Size() > maxInstalledBytes {
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
	if _, ok := files["package.json"]; !ok {
		return nil, fmt.Errorf("%s: no package.json: %w", dir, ErrNotFound)
	}
	return archive.FromFiles(files), nil
}

// describeInstalled documents the copy of a package installed under the
// project (view.dir), with no network: its own declarations, else the
// installed @types package (view.typesDir).
func describeInstalled(view *projectView, subpath string) (*model.Package, error) {
	project, name, dir := view.project, view.name, view.dir
	tree, err := readInstalled(dir, wanted)
	if err != nil {
		return nil, err
	}
	var pj packageJSON
	data, _ := tree.Get("package.json")
	var ver struct {
		Version    string      `json:"version"`
		Deprecated deprecation `json:"deprecated"`
	}
	_ = json.Unmarshal(data, &pj)
	_ = json.Unmarshal(data, &ver)
	pkg, own, err := extractSubpath(tree, "", subpath)
	if err != nil {
		return nil, fmt.Errorf("%s@%s (installed): %w", name, ver.Version, err)
	}
	pkg.Origin = "installed " + filepath.ToSlash(filepath.Join("node_modules", name)) + " (" + strings.TrimPrefix(pkg.Origin, "tarball ") + ")"
	types := own
	if own == nil && !strings.HasPrefix(name, "@types/") {
		if tdir := view.typesDir; tdir != "" {
			if ttree, err := readInstalled(tdir, wanted); err == nil {
				if tpkg, tts, err := extractSubpath(ttree, "", subpath); err == nil {
					types = tts
					pkg.Symbols = tpkg.Symbols
					pkg.Origin += " + installed " + TypesPackage(name)
				}
			}
		}
	}
	if types != nil {
		// Declarations lead into other installed packages only.
		followTypes(types, pkg, func(w wantedDep) (*mount, error) { return mountInstalled(project, w) })
	}
	if own == nil && subpath == "" {
		if js, err := readInstalled(dir, wantedJS); err == nil {
			addJSAPI(pkg, js, name+"@"+ver.Version)
		}
	}
	pkg.Name, pkg.Version, pkg.Ecosystem = name, ver.Version, model.NPM
	pkg.Registry, pkg.SourceURL, pkg.ResolvedFrom = "local", dir, "installed node_modules"
	if ver.Deprecated != "" {
		pkg.Deprecated = string(ver.Deprecated)
	}
	pkg.Install = fmt.Sprintf("```sh\nnpm install %s@%s\n```", name, ver.Version)
	return pkg, nil
}
