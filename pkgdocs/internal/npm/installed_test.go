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
