package gosrc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// extractedCache lays out a module cache as the go command leaves it for
// example.com/Demo v1.0.0 (an upper-case path, escaped as !demo): the
// tree it extracted, and, unless pruned, the download cache's .ziphash.
// It returns GOMODCACHE and the module's h1: hash.
func extractedCache(t *testing.T, pruned bool) (string, string) {
	t.Helper()
	cache := t.TempDir()
	root := filepath.Join(cache, "example.com", "!demo@v1.0.0")
	for _, f := range testutil.TxtarFile(t, "../../testdata/go/demo.txtar") {
		data := f.Data
		if f.Name == "go.mod" {
			data = []byte("module example.com/Demo\n\ngo 1.22\n")
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := dirhash.HashDir(root, "example.com/Demo@v1.0.0", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	if !pruned {
		dl := filepath.Join(cache, "cache", "download", "example.com", "!demo", "@v")
		if err := os.MkdirAll(dl, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dl, "v1.0.0.ziphash"), []byte(sum+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cache, sum
}

// project writes a go.mod requiring example.com/Demo v1.0.0 and a go.sum
// recording sum for it ("" for none).
func project(t *testing.T, sum string) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/Demo v1.0.0\n"), 0o644)
	if sum != "" {
		os.WriteFile(filepath.Join(dir, "go.sum"), []byte("example.com/Demo v1.0.0 "+sum+"\nexample.com/Demo v1.0.0/go.mod h1:x\n"), 0o644)
	}
	return dir
}

// TestExtractedModuleCache: a module is read from the tree the go command
// extracted in the module cache, with or without its download cache, and
// checked against the project's go.sum.
func TestExtractedModuleCache(t *testing.T) {
	const wrong = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	for _, tc := range []struct {
		name       string
		pruned     bool                             // no cache/download
		goSum      func(real string) string         // the go.sum hash, "" for none
		alter      func(t *testing.T, cache string) // change the cache after hashing
		importPath string                           // default example.com/Demo/sub
		noProject  bool                             // ask without a go.mod
		wantErr    error                            // nil: the package is described
		wantText   string                           // in the error, or in Origin
	}{
		{name: "ziphash matches go.sum", goSum: same, wantText: "checksum matches go.sum"},
		{name: "download cache pruned: the tree is hashed", pruned: true, goSum: same, wantText: "checksum matches go.sum"},
		{name: "no go.sum entry: the cache is trusted as go trusts it", goSum: none, wantText: "as extracted by the go command"},
		{name: "ziphash differs from go.sum", goSum: func(string) string { return wrong }, wantErr: ErrChecksumMismatch, wantText: "go.sum records " + wrong},
		{name: "tree altered, no ziphash", pruned: true, goSum: same, alter: func(t *testing.T, cache string) {
			os.WriteFile(filepath.Join(cache, "example.com", "!demo@v1.0.0", "sub", "sub.go"), []byte("package sub\n\nfunc Evil() {}\n"), 0o644)
		}, wantErr: ErrChecksumMismatch},
		{name: "no such package in the tree", pruned: true, goSum: same, importPath: "example.com/Demo/nosuch", wantErr: ErrNotFound, wantText: "did you mean example.com/Demo/sub"},
		{name: "not in go.mod: versions from the extracted trees", pruned: true, goSum: none, noProject: true, wantText: "as extracted by the go command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache, sum := extractedCache(t, tc.pruned)
			if tc.alter != nil {
				tc.alter(t, cache)
			}
			dir := project(t, tc.goSum(sum))
			if tc.noProject {
				dir = ""
			}
			ip := tc.importPath
			if ip == "" {
				ip = "example.com/Demo/sub"
			}
			s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOMODCACHE: cache, Offline: true})}
			pkg, err := s.Describe(context.Background(), Request{ImportPath: ip, ProjectPath: dir})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantText) {
					t.Fatalf("err = %v; want %v mentioning %q", err, tc.wantErr, tc.wantText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if pkg.Version != "v1.0.0" || pkg.Registry != "local module cache" || !strings.Contains(pkg.Origin, tc.wantText) {
				t.Errorf("version %q, registry %q, origin %q; want v1.0.0 from the local module cache, %q", pkg.Version, pkg.Registry, pkg.Origin, tc.wantText)
			}
			if len(pkg.Examples) == 0 || findSym(pkg.Symbols, "Cut") == nil {
				t.Errorf("symbols %d, examples %d: want Cut and ExampleCut", len(pkg.Symbols), len(pkg.Examples))
			}
		})
	}
}

func same(real string) string { return real }
func none(string) string      { return "" }

// findSym returns the symbol called name, or nil.
func findSym(syms []model.Symbol, name string) *model.Symbol {
	for i := range syms {
		if syms[i].Name == name {
			return &syms[i]
		}
	}
	return nil
}

// TestSuggestPackages: a path a module does not provide gets importable
// packages as suggestions, the one named after the module first when the
// module's root is no package.
func TestSuggestPackages(t *testing.T) {
	for _, tc := range []struct {
		mod, p string
		dirs   []string
		first  string
		never  string
	}{
		{"go.mongodb.org/mongo-driver/v2", "go.mongodb.org/mongo-driver/v2",
			[]string{"go.mongodb.org/mongo-driver/v2/bson", "go.mongodb.org/mongo-driver/v2/event", "go.mongodb.org/mongo-driver/v2/mongo", "go.mongodb.org/mongo-driver/v2/tag"},
			"go.mongodb.org/mongo-driver/v2/mongo", ""},
		{"google.golang.org/protobuf", "google.golang.org/protobuf",
			[]string{"google.golang.org/protobuf/encoding", "google.golang.org/protobuf/internal/set", "google.golang.org/protobuf/proto", "google.golang.org/protobuf/protoadapt"},
			"google.golang.org/protobuf/proto", "google.golang.org/protobuf/internal/set"},
		{"example.com/m", "example.com/m/sub2",
			[]string{"example.com/m", "example.com/m/sub", "example.com/m/internal/sub2"},
			"example.com/m/sub", "example.com/m/internal/sub2"},
	} {
		got := suggestPackages(tc.dirs, tc.mod, tc.p)
		if len(got) == 0 || got[0] != tc.first {
			t.Errorf("%s: suggestions %v; want %s first", tc.p, got, tc.first)
		}
		for _, g := range got {
			if g == tc.p || tc.never != "" && g == tc.never {
				t.Errorf("%s: suggests %s", tc.p, g)
			}
		}
	}
}

// TestVendoredModule: a project whose go command builds from vendor/ is
// answered from it, at the version vendor/modules.txt records; a package
// the vendor directory lacks, or a go.mod older than go 1.14, goes to the
// module cache as before.
func TestVendoredModule(t *testing.T) {
	cache, _ := extractedCache(t, true)
	for _, tc := range []struct {
		name, goVersion, importPath string
		wantRegistry                string
	}{
		{"vendored package", "1.22", "example.com/Demo/sub", "project vendor directory"},
		{"package not vendored", "1.22", "example.com/Demo", "local module cache"},
		{"go.mod before vendoring by default", "1.13", "example.com/Demo/sub", "local module cache"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo "+tc.goVersion+"\n\nrequire example.com/Demo v1.0.0\n"), 0o644)
			vdir := filepath.Join(dir, "vendor", "example.com", "Demo", "sub")
			os.MkdirAll(vdir, 0o755)
			os.WriteFile(filepath.Join(dir, "vendor", "modules.txt"), []byte("# example.com/Demo v1.0.0\n## explicit\nexample.com/Demo/sub\n"), 0o644)
			os.WriteFile(filepath.Join(vdir, "sub.go"), []byte("// Package sub is vendored.\npackage sub\n\n// Vendored is only in the vendor copy.\nfunc Vendored() {}\n"), 0o644)
			s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOMODCACHE: cache, Offline: true})}
			pkg, err := s.Describe(context.Background(), Request{ImportPath: tc.importPath, ProjectPath: dir})
			if err != nil {
				t.Fatal(err)
			}
			if pkg.Registry != tc.wantRegistry || pkg.Version != "v1.0.0" {
				t.Fatalf("registry %q, version %q; want %q, v1.0.0", pkg.Registry, pkg.Version, tc.wantRegistry)
			}
			if vendored := findSym(pkg.Symbols, "Vendored") != nil; vendored != (tc.wantRegistry == "project vendor directory") {
				t.Errorf("Vendored found: %v", vendored)
			}
		})
	}
}
