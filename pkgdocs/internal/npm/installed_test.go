package npm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// TestInstalledBeforeNetwork: a package installed in the project's
// node_modules is read from disk, with no registry request, and the
// provenance says so; offline, a package not installed is an error and
// the registry is never asked.
func TestInstalledBeforeNetwork(t *testing.T) {
	var hits atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	defer reg.Close()
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(`{"packages": {}}`), 0o644)
	for _, f := range testutil.TxtarFile(t, "../../testdata/npm/widget.txtar") {
		p := filepath.Join(project, "node_modules", "@acme", "widget", filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	cfg := FromValues(map[string]string{"registry": reg.URL + "/"})
	for _, offline := range []bool{false, true} {
		src := &Source{Client: fetch.New(nil), Config: func(string) (*Config, error) { return cfg, nil }, Offline: offline}
		pkg, err := src.Describe(context.Background(), Request{Name: "@acme/widget", ProjectPath: project})
		if err != nil {
			t.Fatal(err)
		}
		if pkg.Version != "2.1.0" || pkg.Registry != "local" || !strings.Contains(pkg.Origin, "installed node_modules/@acme/widget") || len(pkg.Symbols) == 0 {
			t.Fatalf("offline=%v: %s@%s from %s (%s), %d symbols", offline, pkg.Name, pkg.Version, pkg.Registry, pkg.Origin, len(pkg.Symbols))
		}
	}
	src := &Source{Client: fetch.New(nil), Config: func(string) (*Config, error) { return cfg, nil }, Offline: true}
	if _, err := src.Describe(context.Background(), Request{Name: "left-pad", ProjectPath: project}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("offline, not installed: %v", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("%d registry requests", hits.Load())
	}
}

// TestInstalledJavaScript: an installed package with no declarations is
// documented by the JSDoc of its JavaScript, read from disk; files under
// its own node_modules are not.
func TestInstalledJavaScript(t *testing.T) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(`{"packages": {}}`), 0o644)
	dir := filepath.Join(project, "node_modules", "logger")
	files := map[string]string{
		"package.json":                  `{"name":"logger","version":"1.2.0","main":"lib/index.js"}`,
		"lib/index.js":                  "module.exports = logger\nrequire('../node_modules/dep')\n/**\n * Create a logger middleware.\n * @public\n */\nfunction logger (format, options) {}\n",
		"node_modules/dep/index.js":     "/** Dependency. @public */\nfunction dep() {}",
		"node_modules/dep/package.json": `{"name":"dep"}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	src := &Source{Client: fetch.New(nil), Config: func(string) (*Config, error) { return FromValues(nil), nil }, Offline: true}
	pkg, err := src.Describe(context.Background(), Request{Name: "logger", ProjectPath: project})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Symbols) != 1 || pkg.Symbols[0].Signature != "logger(format, options)" || !strings.Contains(pkg.Origin, "JSDoc of lib/index.js") {
		t.Fatalf("symbols %+v, origin %q", pkg.Symbols, pkg.Origin)
	}
}
