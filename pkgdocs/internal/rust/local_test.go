package rust

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
)

// TestLocalRegistrySources: the version Cargo.lock pins, unpacked in
// $CARGO_HOME/registry/src, is documented with no request to crates.io.
func TestLocalRegistrySources(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); http.NotFound(w, r) }))
	defer srv.Close()
	home := t.TempDir()
	dir := filepath.Join(home, "registry", "src", "index.crates.io-1949cf8c6b5b557f", "kvstore-0.3.1")
	for name, data := range crateFiles(t) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "Cargo.lock"), []byte("version = 4\n\n[[package]]\nname = \"kvstore\"\nversion = \"0.3.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"), 0o644)
	src := &Source{Client: fetch.New(&fetch.Options{Retries: -1}), APIURL: srv.URL, DownloadURL: srv.URL, DocsURL: "off", CargoHome: home}
	pkg, err := src.Describe(context.Background(), Request{Name: "kvstore", ProjectPath: project})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "0.3.1" || pkg.Registry != "local" || pkg.ResolvedFrom != "Cargo.lock" || !strings.HasPrefix(pkg.Origin, "local Cargo registry sources") || len(pkg.Symbols) == 0 {
		t.Fatalf("%s@%s from %s (%s), %d symbols", pkg.Name, pkg.Version, pkg.Registry, pkg.Origin, len(pkg.Symbols))
	}
	if hits.Load() != 0 {
		t.Fatalf("%d upstream requests", hits.Load())
	}
}
