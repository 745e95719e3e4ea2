package npm

import (
	"encoding/json"
	"os"
	"path/filepath"
)

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
// or "": how the packages that declarations lead into are found.
func installedDir(project, name string) string {
	return resolveProject(project, name).dir
}
