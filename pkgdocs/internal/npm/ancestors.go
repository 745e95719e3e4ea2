package npm

import (
	"os"
	"path/filepath"
)

// maxAncestors bounds how far up from a project directory pkgdocs looks.
const maxAncestors = 8

// ancestors returns dir and the directories above it in which pkgdocs may
// look for a lock file, an installed package or an .npmrc: up to the
// repository root (a directory holding .git), never the user's home
// directory (whose .npmrc is the user configuration) or anything above
// it, never the filesystem root, and at most maxAncestors levels. Only
// named files are ever read in them; nothing is listed.
func ancestors(dir string) []string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	var out []string
	for i := 0; i < maxAncestors; i++ {
		parent := filepath.Dir(dir)
		if parent == dir || dir == home && i > 0 {
			break // the filesystem root, or the home directory above the project
		}
		out = append(out, dir)
		if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil && st != nil {
			break // the repository root
		}
		dir = parent
	}
	return out
}
