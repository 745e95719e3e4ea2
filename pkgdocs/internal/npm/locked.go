package npm

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
)

// lockedVersion reads the version of name the project uses, walking up from
// project to the first directory with a lock file (within ancestors): the installed
// node_modules/<name>/package.json first, then package-lock.json (or
// npm-shrinkwrap.json), pnpm-lock.yaml and yarn.lock. It returns the version
// and where it came from, or two empty strings.
func lockedVersion(project, name string) (string, string) {
	if dir := installedDir(project, name); dir != "" {
		var pj struct{ Version string }
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(data, &pj) == nil && pj.Version != "" {
			return pj.Version, "installed node_modules"
		}
	}
	start, _ := filepath.Abs(project)
	for _, dir := range ancestors(start) {
		if data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")); err == nil {
			var pj struct{ Version string }
			if json.Unmarshal(data, &pj) == nil && pj.Version != "" {
				return pj.Version, "installed node_modules"
			}
		}
		found := false
		for _, lf := range []string{"package-lock.json", "npm-shrinkwrap.json"} {
			if data, err := os.ReadFile(filepath.Join(dir, lf)); err == nil {
				found = true
				if v := packageLockVersion(data, name); v != "" {
					return v, lf
				}
			}
		}
		if data, err := os.ReadFile(filepath.Join(dir, "pnpm-lock.yaml")); err == nil {
			found = true
			importer, _ := filepath.Rel(dir, start)
			if v, ok := lockfile.PNPMVersion(data, filepath.ToSlash(importer), name); ok {
				return v, "pnpm-lock.yaml"
			}
		}
		if data, err := os.ReadFile(filepath.Join(dir, "yarn.lock")); err == nil {
			found = true
			if v, ok := lockfile.YarnVersion(data, name, dependencySpec(start, dir, name)); ok {
				return v, "yarn.lock"
			}
		}
		if found {
			return "", ""
		}
	}
	return "", ""
}

// packageLockVersion reads package-lock.json v1 (dependencies) or v2/v3
// (packages).
func packageLockVersion(data []byte, name string) string {
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
		Dependencies map[string]struct {
			Version string `json:"version"`
		} `json:"dependencies"`
	}
	if json.Unmarshal(data, &lock) != nil {
		return ""
	}
	if p, ok := lock.Packages["node_modules/"+name]; ok && p.Version != "" {
		return p.Version
	}
	if d, ok := lock.Dependencies[name]; ok {
		return d.Version
	}
	return ""
}

// dependencySpec returns the range the nearest package.json between start
// and root asks for name, or "".
func dependencySpec(start, root, name string) string {
	for dir := start; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var pj map[string]json.RawMessage
			if json.Unmarshal(data, &pj) == nil {
				for _, field := range []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"} {
					var deps map[string]string
					if json.Unmarshal(pj[field], &deps) == nil && deps[name] != "" {
						return deps[name]
					}
				}
			}
		}
		if dir == root || filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// installedDir returns the directory of name installed in the project's
// node_modules (or an ancestor's, up to the directory with the lock file),
// or "".
func installedDir(project, name string) string {
	for _, dir := range ancestors(project) {
		d := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
		if st, err := os.Stat(filepath.Join(d, "package.json")); err == nil && st.Mode().IsRegular() {
			return d
		}
		for _, lf := range []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"} {
			if _, err := os.Stat(filepath.Join(dir, lf)); err == nil {
				return ""
			}
		}
	}
	return ""
}
