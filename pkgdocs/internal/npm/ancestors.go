package npm

import "github.com/gomcp/sdk/pkgdocs/internal/projectdir"

// maxAncestors bounds how far up from a project directory pkgdocs looks.
const maxAncestors = projectdir.MaxAncestors

// ancestors returns dir and the directories above it in which pkgdocs may
// look for a lock file, an installed package or an .npmrc (see
// projectdir.Ancestors: up to the repository root, never the home
// directory above the project, never the filesystem root).
func ancestors(dir string) []string { return projectdir.Ancestors(dir) }
