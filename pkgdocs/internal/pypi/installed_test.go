package pypi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestInstalledBeforeNetwork: a distribution installed in the project's
// virtual environment is read from site-packages, with no index request.
func TestInstalledBeforeNetwork(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); http.NotFound(w, r) }))
	defer srv.Close()
	project := t.TempDir()
	site := filepath.Join(project, ".venv", "lib", "python3.12", "site-packages")
	var record []string
	for _, f := range wheelFiles(t) {
		p := filepath.Join(site, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
		record = append(record, f.Name+",sha256=x,1")
	}
	os.WriteFile(filepath.Join(site, "tinyhttp-1.4.0.dist-info", "RECORD"), []byte(strings.Join(record, "\n")+"\n"), 0o644)
	src := &Source{Client: client(), IndexURL: srv.URL}
	pkg, err := src.Describe(context.Background(), Request{Name: "TinyHTTP", ProjectPath: project})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "1.4.0" || pkg.Registry != "local" || !strings.Contains(pkg.Origin, "installed site-packages/tinyhttp-1.4.0.dist-info") {
		t.Fatalf("%s@%s from %s (%s)", pkg.Name, pkg.Version, pkg.Registry, pkg.Origin)
	}
	if got := symbolNames(pkg.Symbols); got != wantAPI {
		t.Errorf("symbols:\n%s", got)
	}
	if hits.Load() != 0 {
		t.Fatalf("%d index requests", hits.Load())
	}
	// Another version than the installed one goes to the index.
	if _, err := src.Describe(context.Background(), Request{Name: "tinyhttp", Version: "1.3.0", ProjectPath: project}); err == nil || hits.Load() == 0 {
		t.Fatalf("a version not installed: err %v, %d requests", err, hits.Load())
	}
}
