package gosrc

import (
	"context"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// wrapSrc embeds types of other packages: one of its own module, one of
// the standard library.
const wrapSrc = `// Package wrap wraps.
package wrap

import (
	"io"

	"example.com/Demo/sub"
)

// W wraps a Reader.
type W struct {
	*sub.Reader
}

// Close closes W.
func (w *W) Close() error { return nil }

// RC reads and closes.
type RC interface {
	io.Reader
	Close() error
}
`

// TestMethodsPromotedAcrossPackages: a type embedding a type of another
// package (of its module, or of the standard library) has its methods,
// found as Type.Method and marked with where they are declared.
func TestMethodsPromotedAcrossPackages(t *testing.T) {
	cache, sum := extractedCache(t, false)
	dir := filepath.Join(cache, "example.com", "!demo@v1.0.0", "wrap")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wrap.go"), []byte(wrapSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOMODCACHE: cache, Offline: true})}
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/Demo/wrap", ProjectPath: project(t, sum)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, signature, from string }{
		{"W.Read", "func (r W) Read(p []byte) (int, error)", "example.com/Demo/sub@v1.0.0"},
		{"RC.Read", "func (RC) Read(p []byte) (n int, err error)", "io@"},
	} {
		sym := findSym(pkg.Symbols, tc.name)
		if sym == nil {
			t.Errorf("%s: not found", tc.name)
			continue
		}
		if sym.Signature != tc.signature || !strings.HasPrefix(sym.Package, tc.from) || !sym.Hidden || !strings.Contains(sym.Doc, "Promoted from the embedded") {
			t.Errorf("%s: signature %q, package %q, hidden %v, doc %q; want %q from %s", tc.name, sym.Signature, sym.Package, sym.Hidden, sym.Doc, tc.signature, tc.from)
		}
	}
	closes := 0
	for _, sym := range pkg.Symbols {
		if sym.Name == "RC.Close" || sym.Name == "W.Close" {
			closes++
		}
	}
	if closes != 2 {
		t.Errorf("%d Close methods; want W.Close and RC.Close once each", closes)
	}
}

// TestImportNames: the names a file refers to its imports by.
func TestImportNames(t *testing.T) {
	src := `package p
import (
	"io"
	"gopkg.in/yaml.v3"
	"github.com/redis/go-redis/v9"
	"github.com/go-chi/chi/v5"
	meta "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "embed"
)`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	got := importNames(f)
	for name, want := range map[string]string{"io": "io", "yaml": "gopkg.in/yaml.v3", "redis": "github.com/redis/go-redis/v9", "chi": "github.com/go-chi/chi/v5", "meta": "k8s.io/apimachinery/pkg/apis/meta/v1"} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	if _, ok := got["_"]; ok {
		t.Error("a blank import has a name")
	}
}

// TestPromotedSignature: a promoted method's receiver is the embedding
// type, a pointer only when the embedded type is not.
func TestPromotedSignature(t *testing.T) {
	for _, tc := range []struct {
		sig, outer string
		pointer    bool
		want       string
	}{
		{"func (a *Assertions) Equal(x, y any) bool", "Suite", true, "func (a Suite) Equal(x, y any) bool"},
		{"func (a *Assertions) Equal(x, y any) bool", "Suite", false, "func (a *Suite) Equal(x, y any) bool"},
		{"func (Reader) Read(p []byte) (n int, err error)", "RC", false, "func (RC) Read(p []byte) (n int, err error)"},
		{"func (m ObjectMeta) GetName() string", "Pod", false, "func (m Pod) GetName() string"},
		{"not a method", "X", false, "not a method"},
	} {
		if got := promotedSignature(tc.sig, tc.outer, tc.pointer); got != tc.want {
			t.Errorf("promotedSignature(%q, %q, %v) = %q, want %q", tc.sig, tc.outer, tc.pointer, got, tc.want)
		}
	}
}

// TestEmbeddedPackageFromTheSameZip: the package of an embedded type in
// the same module is read from the zip already downloaded for the answer.
func TestEmbeddedPackageFromTheSameZip(t *testing.T) {
	files := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	files = append(files, testutil.File{Name: "wrap/wrap.go", Data: []byte(strings.ReplaceAll(wrapSrc, "example.com/Demo", "example.com/demo"))})
	data, err := testutil.FormatGoFixture(testutil.GoFixture{Module: "example.com/demo", Version: "v1.0.0", List: []string{"v1.0.0"}, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "demo.txtar"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gp := testutil.NewGoProxy(t, dir)
	var zips atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".zip") {
			zips.Add(1)
		}
		gp.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: srv.URL})}
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/wrap"})
	if err != nil {
		t.Fatal(err)
	}
	if findSym(pkg.Symbols, "W.Read") == nil {
		t.Error("W.Read: not found")
	}
	if n := zips.Load(); n != 1 {
		t.Errorf("the module zip was downloaded %d times; want once", n)
	}
}

// TestNoPendingLeft: once Describe returns, nothing it extracted is kept
// for it, the embedded packages' own embeddings included (text/template's
// Template embeds *parse.Tree of another package).
func TestNoPendingLeft(t *testing.T) {
	cache, sum := extractedCache(t, false)
	dir := filepath.Join(cache, "example.com", "!demo@v1.0.0", "tmpl")
	os.MkdirAll(dir, 0o755)
	src := "// Package tmpl templates.\npackage tmpl\n\nimport \"text/template\"\n\n// T is a template.\ntype T struct{ *template.Template }\n"
	os.WriteFile(filepath.Join(dir, "tmpl.go"), []byte(src), 0o644)
	s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOMODCACHE: cache, Offline: true})}
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/Demo/tmpl", ProjectPath: project(t, sum)})
	if err != nil {
		t.Fatal(err)
	}
	if findSym(pkg.Symbols, "T.Execute") == nil {
		t.Error("T.Execute: not found")
	}
	s.pending.Range(func(k, _ any) bool {
		t.Errorf("left pending: %v", k.(*model.Package).Name)
		return true
	})
}
