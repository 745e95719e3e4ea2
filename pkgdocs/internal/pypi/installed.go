package pypi

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// venvDirs are where a project keeps its virtual environment.
var venvDirs = []string{".venv", "venv", "env", ".env"}

// Limits on reading an installed distribution.
const (
	maxInstalledFiles = 20000
	maxInstalledFile  = 2 << 20
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

// installedFiles is an installed distribution's files, read from disk
// when asked for: pkgdocs reads the metadata and the modules it scans,
// not every file a large distribution has.
type installedFiles struct {
	site  string
	names []string // sorted
	known map[string]bool
}

// Names lists the files (sorted).
func (f *installedFiles) Names() []string { return f.names }

// Get reads one listed file; a file that is not a regular file, or is
// larger than a wheel's file limit, is not read.
func (f *installedFiles) Get(name string) ([]byte, bool) {
	if !f.known[name] {
		return nil, false
	}
	p := filepath.Join(f.site, filepath.FromSlash(name))
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxInstalledFile {
		return nil, false
	}
	data, err := os.ReadFile(p)
	return data, err == nil
}

// readInstalled lists a distribution's metadata and the Python files its
// RECORD names (its top-level packages when there is no RECORD), at most
// maxInstalledFiles of them.
func readInstalled(site, distInfo string) (*installedFiles, error) {
	f := &installedFiles{site: site, known: map[string]bool{}}
	add := func(rel string) {
		rel = path.Clean(filepath.ToSlash(rel))
		if strings.HasPrefix(rel, "..") || path.IsAbs(rel) || f.known[rel] || len(f.names) >= maxInstalledFiles {
			return
		}
		f.known[rel] = true
		f.names = append(f.names, rel)
	}
	for _, m := range []string{"METADATA", "top_level.txt"} {
		if st, err := os.Lstat(filepath.Join(site, distInfo, m)); err == nil && st.Mode().IsRegular() {
			add(distInfo + "/" + m)
		}
	}
	if !f.known[distInfo+"/METADATA"] {
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
		data, _ := f.Get(distInfo + "/top_level.txt")
		for _, top := range strings.Fields(string(data)) {
			if _, err := os.Lstat(filepath.Join(site, top+".py")); err == nil {
				add(top + ".py")
			}
			_ = filepath.WalkDir(filepath.Join(site, top), func(p string, d os.DirEntry, err error) error {
				if err != nil || len(f.names) >= maxInstalledFiles {
					return filepath.SkipDir
				}
				if !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) {
					rel, _ := filepath.Rel(site, p)
					add(rel)
				}
				return nil
			})
		}
	}
	sort.Strings(f.names)
	return f, nil
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
		ResolvedFrom: "installed site-packages",
		Origin:       fmt.Sprintf("installed site-packages/%s (%d modules)", distInfo, len(info.modules)),
	}
	sb := newSiblings(site, distInfo)
	pkg.Symbols = fillExternalBases(sb, fillReexports(sb, info.symbols), info.extBases)
	applyMetadata(pkg, info.meta)
	if info.truncated {
		pkg.Notes = append(pkg.Notes, "The distribution is large; only the modules its top-level packages import from, and its first other modules, were read.")
	}
	pkg.Install = fmt.Sprintf("```sh\npip install '%s==%s'\n```", pkg.Name, version)
	return pkg, nil
}
