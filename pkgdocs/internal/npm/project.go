package npm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
)

// projectView is what a project says about one package, resolved once per
// request, in one walk up from the project directory, before anything is
// read: the readers (the installed copy, the registry, the @types
// fallback) receive it rather than asking the file system again.
type projectView struct {
	project string // the project directory as given; "" for none
	name    string

	// dir is the installed copy (node_modules/<name> in the project or
	// an ancestor, up to the directory holding the lock file), or "".
	dir string
	// installedVersion is the version in dir's package.json.
	installedVersion string
	// typesDir is the installed @types package for name, or "".
	typesDir string
	// version is the version the project uses, or "": the installed one,
	// else the one its lock file pins; from says which ("installed
	// node_modules", "package-lock.json", "pnpm-lock.yaml", "yarn.lock").
	version, from string
	// spec is the range the nearest package.json asks for name, read when
	// a yarn.lock needs it to find the entry; "" otherwise.
	spec string
}

// lockFiles are the lock files that mark the top of a project, in the
// order they are read.
var lockFiles = []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"}

// resolveProject builds the project's view of name. Without a project it
// is empty.
func resolveProject(project, name string) *projectView {
	v := &projectView{project: project, name: name}
	if project == "" {
		return v
	}
	start, _ := filepath.Abs(project)
	for _, dir := range ancestors(start) {
		if v.dir == "" {
			v.dir, v.installedVersion = installedAt(dir, name)
		}
		if v.typesDir == "" && !strings.HasPrefix(name, "@types/") {
			v.typesDir, _ = installedAt(dir, TypesPackage(name))
		}
		if v.hasLockFile(dir) {
			if v.installedVersion == "" {
				v.version, v.from = v.lockedAt(start, dir)
			}
			break
		}
	}
	if v.installedVersion != "" {
		v.version, v.from = v.installedVersion, "installed node_modules"
	}
	return v
}

// installedAt returns dir/node_modules/<name> and its version when a
// package is installed there.
func installedAt(dir, name string) (string, string) {
	d := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
	st, err := os.Stat(filepath.Join(d, "package.json"))
	if err != nil || !st.Mode().IsRegular() {
		return "", ""
	}
	var pj struct{ Version string }
	if data, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
		_ = json.Unmarshal(data, &pj)
	}
	return d, pj.Version
}

func (v *projectView) hasLockFile(dir string) bool {
	for _, lf := range lockFiles {
		if _, err := os.Stat(filepath.Join(dir, lf)); err == nil {
			return true
		}
	}
	return false
}

// lockedAt reads the version of the package that the lock files in dir
// pin for the project at start, and which file said so.
func (v *projectView) lockedAt(start, dir string) (string, string) {
	for _, lf := range []string{"package-lock.json", "npm-shrinkwrap.json"} {
		if data, err := os.ReadFile(filepath.Join(dir, lf)); err == nil {
			if ver := packageLockVersion(data, v.name); ver != "" {
				return ver, lf
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "pnpm-lock.yaml")); err == nil {
		importer, _ := filepath.Rel(dir, start)
		if ver, ok := lockfile.PNPMVersion(data, filepath.ToSlash(importer), v.name); ok {
			return ver, "pnpm-lock.yaml"
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "yarn.lock")); err == nil {
		v.spec = dependencySpec(start, dir, v.name)
		if ver, ok := lockfile.YarnVersion(data, v.name, v.spec); ok {
			return ver, "yarn.lock"
		}
	}
	return "", ""
}
