package gosrc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// maxModulesTxt bounds the vendor/modules.txt read.
const maxModulesTxt = 16 << 20

// vendoredVersion reports whether the project at root builds mod from its
// vendor directory, as the go command does when vendor/modules.txt exists
// and go.mod says go 1.14 or later, and at which version modules.txt
// records it ("# <module> <version>").
func vendoredVersion(root string, mf *modfile.File, mod string) (string, bool) {
	if mf.Go == nil || semver.Compare("v"+mf.Go.Version, "v1.14") < 0 {
		return "", false
	}
	f, err := os.Open(filepath.Join(root, "vendor", "modules.txt"))
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxModulesTxt))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 3 && fields[0] == "#" && fields[1] == mod {
			return fields[2], true
		}
	}
	return "", false
}

// describeVendored documents package p from the project's vendor
// directory, when the go command would build it from there. found is
// false when the vendor directory does not hold p (a package of a
// vendored module that the project does not import).
func (s *Source) describeVendored(p, root, version string, tgt Target) (pkg *model.Package, found bool, err error) {
	dir := filepath.Join(root, "vendor", filepath.FromSlash(p))
	if files, err := readGoDir(dir); err != nil || !hasGoFiles(archive.FromFiles(files), "") {
		return nil, false, nil
	}
	pkg, _, err = s.describeLocal(p, dir, "vendor/modules.txt", tgt)
	if err != nil {
		return nil, false, err
	}
	pkg.Version = version
	pkg.Registry = "project vendor directory"
	pkg.Install = fmt.Sprintf("```sh\ngo get %s@%s\n```\n\n```go\nimport %q\n```", p, version, p)
	return pkg, true, nil
}
