// Package projectdir bounds the directories pkgdocs searches above a
// project directory for lock files, manifests and installed packages.
package projectdir

import (
	"os"
	"path/filepath"
)

// MaxAncestors bounds how many directories, the project's own included,
// are searched.
const MaxAncestors = 8

// Ancestors returns dir and the directories above it in which a named file
// (a lock file, go.mod, an installed package, an .npmrc) may be looked
// for: up to the repository root (a directory holding .git), never the
// user's home directory (unless dir is the home directory itself) nor
// anything above it, never the filesystem root, and at most MaxAncestors
// directories. Callers only read named files in them; nothing is listed.
func Ancestors(dir string) []string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	var out []string
	for i := 0; i < MaxAncestors; i++ {
		parent := filepath.Dir(dir)
		if parent == dir || dir == home && i > 0 {
			break // the filesystem root, or the home directory above the project
		}
		out = append(out, dir)
		if dir == home {
			break // never above the home directory
		}
		if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil && st != nil {
			break // the repository root
		}
		dir = parent
	}
	return out
}

// Nearest returns the path of the regular file name in dir or the closest
// of its Ancestors, or "" when there is none within those bounds.
func Nearest(dir, name string) string {
	for _, d := range Ancestors(dir) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}
