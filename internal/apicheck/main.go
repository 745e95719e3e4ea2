// Command apicheck writes down the exported API of every public package of
// the repository's released modules, one file per package under api/, and
// compares the code with those files.
//
// From the repository root:
//
//	go run ./internal/apicheck -write   # regenerate api/
//	go run ./internal/apicheck          # report differences; exit 1 if any
//
// Each file lists one exported identifier per line with its signature, as
// the Go project's api/ directory does (see apiLines). The test of this
// package, part of the README's test command, fails when the code and api/
// differ, so every API change shows in review as a change to api/.
//
// The packages are those of the released modules (releasedModules) that are
// neither internal nor commands, nor under examples, conformance, interop or
// bench. They are read from the compiler's export data (go list -export), so
// the tool needs nothing beyond the standard library.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// rootModule is the module path of the repository's root module; package
// names in api/ are import paths relative to it.
const rootModule = "github.com/gomcp/sdk"

// releasedModules are the directories of the modules RELEASING.md releases.
// unreleasedModules are the workspace's other modules (TestModulesClassified
// fails when a module of go.work is in neither list).
var (
	releasedModules   = []string{".", "auth", "cmd/gomcp", "otel", "pkgdocs", "redis"}
	unreleasedModules = []string{"bench", "conformance/everything-client", "conformance/everything-server",
		"examples/auth-server", "examples/migrate", "examples/scale-out", "otel/example"}
)

// unpublishedDirs are directories of released modules whose packages are
// not API: programs and their helpers.
var unpublishedDirs = []string{"examples", "conformance", "interop", "bench"}

func main() {
	write := flag.Bool("write", false, "rewrite api/ to match the code")
	released := flag.Bool("released", false, "print the released modules' directories, one a line, and exit (for .ci/apicompat.sh)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./internal/apicheck [-write | -released]\n\nWithout -write, reports how the exported API differs from api/ and exits 1 if it does.\n")
	}
	flag.Parse()
	if *released {
		fmt.Println(strings.Join(releasedModules, "\n"))
		return
	}
	root, err := repoRoot()
	if err != nil {
		fatal(err)
	}
	files, err := Generate(root)
	if err != nil {
		fatal(err)
	}
	if *write {
		if err := Write(filepath.Join(root, "api"), files); err != nil {
			fatal(err)
		}
		return
	}
	diff, err := Compare(filepath.Join(root, "api"), files)
	if err != nil {
		fatal(err)
	}
	if diff != "" {
		fmt.Fprint(os.Stderr, diff)
		fmt.Fprintln(os.Stderr, "the exported API differs from api/: review the change, then run go run ./internal/apicheck -write")
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "apicheck:", err)
	os.Exit(2)
}

// repoRoot returns the directory of the go.work file in effect.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOWORK").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOWORK: %w", err)
	}
	gowork := strings.TrimSpace(string(out))
	if gowork == "" || gowork == "off" {
		return "", errors.New("no go.work in effect: run from inside the repository")
	}
	return filepath.Dir(gowork), nil
}

// listedPackage is what go list -json tells of a package.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Export     string
	DepOnly    bool
	Module     *struct{ Path, Dir string }
	Error      *struct{ Err string }
}

// loaded holds what load found for each root, as the tests ask more
// than once.
var loaded sync.Map // root -> loadResult

type loadResult struct {
	public  []listedPackage
	exports map[string]string
}

// load lists the released modules' packages and their dependencies with
// go list -export: it returns the public packages and the export data file
// of every package.
func load(root string) ([]listedPackage, map[string]string, error) {
	if r, ok := loaded.Load(root); ok {
		return r.(loadResult).public, r.(loadResult).exports, nil
	}
	public, exports, err := list(root)
	if err == nil {
		loaded.Store(root, loadResult{public, exports})
	}
	return public, exports, err
}

// list is load without the memory.
func list(root string) (public []listedPackage, exports map[string]string, err error) {
	var patterns []string
	for _, dir := range releasedModules {
		patterns = append(patterns, path.Join(rootModule, dir)+"/...")
	}
	cmd := exec.Command("go", append([]string{"list", "-e", "-export", "-deps",
		"-json=ImportPath,Name,Dir,GoFiles,Export,DepOnly,Module,Error"}, patterns...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %w\n%s", err, stderr.Bytes())
	}
	exports = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading go list output: %w", err)
		}
		if p.Error != nil && !p.DepOnly {
			return nil, nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly && isPublic(root, p) {
			public = append(public, p)
		}
	}
	if len(public) == 0 {
		return nil, nil, errors.New("no public packages found")
	}
	return public, exports, nil
}

// exportImporter returns an importer that reads the export data files of
// exports.
func exportImporter(fset *token.FileSet, exports map[string]string) types.Importer {
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}

// Generate returns the API files of the repository at root: each file's
// path relative to api/ (auth.txt, ext/apps.txt) and its content.
func Generate(root string) (map[string][]byte, error) {
	public, exports, err := load(root)
	if err != nil {
		return nil, err
	}
	imp := exportImporter(token.NewFileSet(), exports)
	files := map[string][]byte{}
	for _, p := range public {
		pkg, err := imp.Import(p.ImportPath)
		if err != nil {
			return nil, fmt.Errorf("reading the API of %s: %w", p.ImportPath, err)
		}
		name := strings.TrimPrefix(p.ImportPath, rootModule+"/")
		var buf bytes.Buffer
		for _, l := range apiLines(name, pkg) {
			buf.WriteString(l)
			buf.WriteByte('\n')
		}
		files[name+".txt"] = buf.Bytes()
	}
	return files, nil
}

// isPublic reports whether p is a public package of a released module.
func isPublic(root string, p listedPackage) bool {
	if p.Module == nil || p.Name == "main" || !strings.HasPrefix(p.ImportPath, rootModule+"/") {
		return false
	}
	modDir, err := filepath.Rel(root, p.Module.Dir)
	if err != nil || !slices.Contains(releasedModules, filepath.ToSlash(modDir)) {
		return false
	}
	rel := strings.TrimPrefix(p.ImportPath, rootModule+"/")
	for _, elem := range strings.Split(rel, "/") {
		if elem == "internal" || elem == "testdata" {
			return false
		}
	}
	for _, d := range unpublishedDirs {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return false
		}
	}
	return true
}

// Write makes dir hold exactly files: it writes each and removes any other
// .txt file (the API of a package that no longer exists).
func Write(dir string, files map[string][]byte) error {
	old, err := readDir(dir)
	if err != nil {
		return err
	}
	for name := range old {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readDir returns the .txt files under dir, by path relative to it; none if
// dir does not exist.
func readDir(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return fs.SkipAll
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	return files, nil
}

// Compare returns how files (the API of the code) differ from the API
// files in dir: per file, the lines the code adds (+) and those it no
// longer has (-). It returns "" when they are the same.
func Compare(dir string, files map[string][]byte) (string, error) {
	old, err := readDir(dir)
	if err != nil {
		return "", err
	}
	names := map[string]bool{}
	for n := range old {
		names[n] = true
	}
	for n := range files {
		names[n] = true
	}
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(names)) {
		was, is := lines(old[n]), lines(files[n])
		var removed, added []string
		for _, l := range was {
			if !slices.Contains(is, l) {
				removed = append(removed, l)
			}
		}
		for _, l := range is {
			if !slices.Contains(was, l) {
				added = append(added, l)
			}
		}
		if len(removed) == 0 && len(added) == 0 {
			continue
		}
		switch {
		case old[n] == nil:
			fmt.Fprintf(&b, "api/%s: missing (a new package)\n", n)
		case files[n] == nil:
			fmt.Fprintf(&b, "api/%s: the package is gone\n", n)
		default:
			fmt.Fprintf(&b, "api/%s:\n", n)
		}
		for _, l := range removed {
			fmt.Fprintf(&b, "-%s\n", l)
		}
		for _, l := range added {
			fmt.Fprintf(&b, "+%s\n", l)
		}
	}
	return b.String(), nil
}

func lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
