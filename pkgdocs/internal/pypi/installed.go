package pypi

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// venvDirs are where a project keeps its virtual environment.
var venvDirs = []string{".venv", "venv", "env", ".env"}

// Limits on reading an installed distribution.
const (
	maxInstalledFiles = 2000
	maxInstalledBytes = 16 << 20
)

// installedDist finds name installed in a virtual environment of the
// project: the site-packages directory and the distribution's .dist-info
// directory name, or "" when it is not installed.
func installedDist(project, norm string) (site, distInfo string) {
	if project == "" {
		return "", ""
	}
	var sites []string
	for _, v := range venvDirs {
		m, _ := filepath.Glob(filepath.Join(project, v, "lib", "python3*", "site-packages"))
		sites = append(sites, m...)
		sites = append(sites, filepath.Join(project, v, "Lib", "site-packages"))
	}
	for _, s := range sites {
		if d := distInfoIn(s, norm); d != "" {
			return s, d
		}
	}
	return "", ""
}

// distInfoIn returns the name of the .dist-info directory of the
// distribution norm in a site-packages directory, or "".
func distInfoIn(site, norm string) string {
	infos, _ := filepath.Glob(filepath.Join(site, "*.dist-info"))
	for _, d := range infos {
		base := strings.TrimSuffix(filepath.Base(d), ".dist-info")
		name, _, _ := strings.Cut(base, "-")
		if Normalize(name) == norm {
			return filepath.Base(d)
		}
	}
	return ""
}

// readInstalled reads a distribution's metadata and the Python files its
// RECORD lists (its top-level packages when there is no RECORD), within
// limits, into a tree laid out like a wheel.
func readInstalled(site, distInfo string) (*archive.Tree, error) {
	files := map[string][]byte{}
	var total int64
	add := func(rel string) {
		rel = path.Clean(filepath.ToSlash(rel))
		if strings.HasPrefix(rel, "..") || path.IsAbs(rel) || len(files) >= maxInstalledFiles {
			return
		}
		p := filepath.Join(site, filepath.FromSlash(rel))
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || total+st.Size() > maxInstalledBytes {
			return
		}
		if data, err := os.ReadFile(p); err == nil {
			files[rel] = data
			total += int64(len(data))
		}
	}
	for _, f := range []string{"METADATA", "top_level.txt"} {
		add(distInfo + "/" + f)
	}
	if _, ok := files[distInfo+"/METADATA"]; !ok {
		return nil, fmt.Errorf("%s: no METADATA: %w", distInfo, ErrNotFound)
	}
	if record, err := os.ReadFile(filepath.Join(site, distInfo, "RECORD")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(record))
		for sc.Scan() {
			rel, _, _ := strings.Cut(sc.Text(), ",")
			if strings.HasSuffix(rel, ".py") || strings.HasSuffix(rel, ".pyi") {
				add(rel)
			}
		}
	} else {
		for _, top := range strings.Fields(string(files[distInfo+"/top_level.txt"])) {
			add(top + ".py")
			matches, _ := filepath.Glob(filepath.Join(site, top, "*.py*"))
			for _, m := range matches {
				rel, _ := filepath.Rel(site, m)
				add(rel)
			}
		}
	}
	return archive.FromFiles(files), nil
}

// describeInstalled documents a distribution installed in the project's
// virtual environment, with no network.
func describeInstalled(site, distInfo string) (*model.Package, error) {
	tree, err := readInstalled(site, distInfo)
	if err != nil {
		return nil, err
	}
	info := inspectDist(tree)
	_, version, _ := strings.Cut(strings.TrimSuffix(distInfo, ".dist-info"), "-")
	pkg := &model.Package{
		Version: version, Ecosystem: model.Python, Registry: "local", SourceURL: filepath.Join(site, distInfo),
		ResolvedFrom: "installed site-packages", Symbols: info.symbols,
		Origin: fmt.Sprintf("installed site-packages/%s (%d modules)", distInfo, len(info.modules)),
	}
	applyMetadata(pkg, info.meta)
	pkg.Install = fmt.Sprintf("```sh\npip install '%s==%s'\n```", pkg.Name, version)
	return pkg, nil
}
