package gosrc

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/txtar"
)

// recordedCachePackages are the packages the recorded module-cache project
// (testdata/eval/projects/go-modcache.txtar) imports; its go.mod and go.sum
// are what `go mod tidy` wrote for them.
var recordedCachePackages = []string{
	"github.com/redis/go-redis/v9",
	"go.opentelemetry.io/otel/trace",
	"github.com/rs/zerolog",
	"github.com/jackc/pgx/v5/pgxpool",
	"github.com/gin-gonic/gin",
	"golang.org/x/net/http2",
	"github.com/Masterminds/semver/v3",
	"github.com/google/go-cmp/cmp",
	"github.com/stretchr/testify/suite",
	"github.com/stretchr/testify/assert",      // suite.Suite embeds *assert.Assertions
	"go.opentelemetry.io/otel/trace/embedded", // trace.Span embeds embedded.Span
}

// TestRecordGoModuleCacheProject records a Go project and the module
// cache the go command fills for it: it runs `go mod tidy` for a program
// importing recordedCachePackages with an empty GOMODCACHE, then keeps
// the project's go.mod, go.sum and program, and of the module cache what
// pkgdocs reads for those packages (the extracted package directories
// and the .ziphash of each module), under gomodcache/ as the evaluation
// expects. It runs only with PKGDOCS_RECORD_GOPROJECT=1 (it needs the go
// command and the module proxy).
func TestRecordGoModuleCacheProject(t *testing.T) {
	if os.Getenv("PKGDOCS_RECORD_GOPROJECT") != "1" {
		t.Skip("set PKGDOCS_RECORD_GOPROJECT=1 to re-record the module-cache project with the go command")
	}
	proj, cache := goProject(t, recordedCachePackages, []string{"mod", "tidy"})
	ar := &txtar.Archive{Comment: []byte("A Go project and the part of its module cache (GOMODCACHE=gomodcache) that pkgdocs reads,\nrecorded by TestRecordGoModuleCacheProject with `go mod tidy`.\n")}
	ar.Files = projectFiles(t, proj, "go.mod", "go.sum", "main.go")
	gomod, _ := os.ReadFile(filepath.Join(proj, "go.mod"))
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]bool{}
	for _, p := range recordedCachePackages {
		ar.Files = append(ar.Files, cachedPackageFiles(t, cache, mf, p, recorded)...)
	}
	writeProject(t, ar, "go-modcache")
}

// recordedVendorPackages are the packages the recorded vendoring project
// (testdata/eval/projects/go-vendor.txtar) imports.
var recordedVendorPackages = []string{
	"github.com/google/uuid",
	"github.com/spf13/cobra",
	"golang.org/x/sync/errgroup",
}

// TestRecordGoVendorProject records a project that builds from its
// vendor directory (`go mod tidy`, `go mod vendor`): its go.mod, go.sum,
// program, vendor/modules.txt and the vendored directories of
// recordedVendorPackages. It runs only with PKGDOCS_RECORD_GOPROJECT=1.
func TestRecordGoVendorProject(t *testing.T) {
	if os.Getenv("PKGDOCS_RECORD_GOPROJECT") != "1" {
		t.Skip("set PKGDOCS_RECORD_GOPROJECT=1 to re-record the vendoring project with the go command")
	}
	proj, _ := goProject(t, recordedVendorPackages, []string{"mod", "tidy"}, []string{"mod", "vendor"})
	ar := &txtar.Archive{Comment: []byte("A Go project that builds from its vendor directory (no module cache), trimmed to what pkgdocs reads,\nrecorded by TestRecordGoVendorProject with `go mod tidy` and `go mod vendor`.\n")}
	ar.Files = projectFiles(t, proj, "go.mod", "go.sum", "main.go", "vendor/modules.txt")
	for _, p := range recordedVendorPackages {
		dir := path.Join("vendor", p)
		ents, err := os.ReadDir(filepath.Join(proj, filepath.FromSlash(dir)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if n := e.Name(); e.Type().IsRegular() && (strings.HasSuffix(n, ".go") || strings.HasPrefix(n, "README")) {
				ar.Files = append(ar.Files, projectFiles(t, proj, dir+"/"+n)...)
			}
		}
	}
	writeProject(t, ar, "go-vendor")
}

// goProject writes a program importing pkgs into a new project directory
// and runs the go commands given in it with an empty module cache. It
// returns the project directory and the module cache.
func goProject(t *testing.T, pkgs []string, cmds ...[]string) (string, string) {
	t.Helper()
	tmp := t.TempDir()
	proj, cache := filepath.Join(tmp, "proj"), filepath.Join(tmp, "modcache")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	var prog strings.Builder
	prog.WriteString("// Command evalproject imports the packages the evaluation asks about.\npackage main\n\nimport (\n")
	for _, p := range pkgs {
		prog.WriteString("\t_ \"" + p + "\"\n")
	}
	prog.WriteString(")\n\nfunc main() {}\n")
	for name, data := range map[string]string{"go.mod": "module example.com/evalproject\n\ngo 1.24\n", "main.go": prog.String()} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range cmds {
		cmd := exec.Command("go", args...)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-modcacherw", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return proj, cache
}

// projectFiles reads files of the project directory as txtar files.
func projectFiles(t *testing.T, proj string, names ...string) []txtar.File {
	t.Helper()
	var out []txtar.File
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(proj, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, txtar.File{Name: name, Data: data})
	}
	return out
}

// writeProject writes testdata/eval/projects/<name>.txtar.
func writeProject(t *testing.T, ar *txtar.Archive, name string) {
	t.Helper()
	for i, f := range ar.Files {
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			ar.Files[i].Data = append(f.Data, '\n')
		}
	}
	out := "../../testdata/eval/projects/" + name + ".txtar"
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cachedPackageFiles returns what pkgdocs reads of the module cache for
// package p, named as under gomodcache/: the files of its extracted
// directory that pkgdocs reads, and, once per module (recorded), the
// .ziphash it checks go.sum against.
func cachedPackageFiles(t *testing.T, cache string, mf *modfile.File, p string, recorded map[string]bool) []txtar.File {
	t.Helper()
	var mod module.Version
	for _, r := range mf.Require {
		if within(p, r.Mod.Path) && len(r.Mod.Path) > len(mod.Path) {
			mod = r.Mod
		}
	}
	if mod.Path == "" {
		t.Fatalf("%s: no module in go.mod provides it", p)
	}
	em, _ := module.EscapePath(mod.Path)
	ev, _ := module.EscapeVersion(mod.Version)
	root := em + "@" + ev
	dir := path.Join(root, strings.TrimPrefix(strings.TrimPrefix(p, mod.Path), "/"))
	ents, err := os.ReadDir(filepath.Join(cache, filepath.FromSlash(dir)))
	if err != nil {
		t.Fatal(err)
	}
	var out []txtar.File
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !(strings.HasSuffix(n, ".go") || strings.HasPrefix(n, "README")) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(cache, filepath.FromSlash(dir), n))
		if err != nil {
			t.Fatal(err)
		}
		if readByPkgdocs(n, data) {
			out = append(out, txtar.File{Name: "gomodcache/" + dir + "/" + n, Data: data})
		}
	}
	if !recorded[root] {
		recorded[root] = true
		zh := path.Join("cache/download", em, "@v", ev+".ziphash")
		data, err := os.ReadFile(filepath.Join(cache, filepath.FromSlash(zh)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, txtar.File{Name: "gomodcache/" + zh, Data: data})
	}
	t.Logf("%s: %s@%s", p, mod.Path, mod.Version)
	return out
}
