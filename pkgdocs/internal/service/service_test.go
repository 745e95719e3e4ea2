package service

import (
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite golden files")

// upstream is one httptest server playing the Go module proxy (/goproxy/),
// the npm registry (/npm/), PyPI (/pypi/), crates.io (/crates/, /static/),
// docs.rs (/docsrs/) and a git host with codeload (/git/, /codeload/). It
// counts requests.
type upstream struct {
	*httptest.Server
	requests atomic.Int32
	fail     atomic.Bool // answer 503 to everything
}

func newUpstream(t testing.TB) *upstream {
	goFiles := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	goZip := testutil.Zip(t, "example.com/demo@v1.1.0/", goFiles)
	tgz := testutil.TarGz(t, "package/", testutil.TxtarFile(t, "../../testdata/npm/widget.txtar"))
	sum := sha512.Sum512(tgz)
	u := &upstream{}
	mux := http.NewServeMux()
	mux.HandleFunc("/goproxy/example.com/demo/@v/list", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("v1.1.0\n")) })
	mux.HandleFunc("/goproxy/example.com/demo/@v/v1.1.0.info", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"Version":"v1.1.0"}`)) })
	mux.HandleFunc("/goproxy/example.com/demo/@v/v1.1.0.zip", func(w http.ResponseWriter, r *http.Request) { w.Write(goZip) })
	vdoc := func() map[string]any {
		return map[string]any{"name": "@acme/widget", "version": "2.1.0", "dist": map[string]any{
			"tarball": u.URL + "/npm/@acme/widget/-/widget-2.1.0.tgz", "integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}}
	}
	mux.HandleFunc("/npm/@acme/widget/latest", func(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(vdoc()) })
	mux.HandleFunc("/npm/@acme/widget/2.1.0", func(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(vdoc()) })
	mux.HandleFunc("/npm/@acme/widget/-/widget-2.1.0.tgz", func(w http.ResponseWriter, r *http.Request) { w.Write(tgz) })
	addPython(t, mux, u)
	addRust(t, mux)
	addSwift(t, mux)
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.requests.Add(1)
		if u.fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		// The registry addresses scoped packages as @scope%2fname.
		r.URL.RawPath = ""
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

func newService(t *testing.T, u *upstream, cacheDir string) *Service {
	t.Setenv("PIP_INDEX_URL", "") // the JSON API fake, whatever the environment says
	s, err := New(&Config{
		Client:     fetch.New(&fetch.Options{BaseBackoff: time.Millisecond, Retries: -1}),
		GOPROXY:    u.URL + "/goproxy",
		GOMODCACHE: t.TempDir(),
		NPM:        NPMConfig{Values: map[string]string{"registry": u.URL + "/npm/"}},
		Python:     PythonConfig{IndexURL: u.URL + "/pypi"},
		Rust:       RustConfig{APIURL: u.URL + "/crates", DownloadURL: u.URL + "/static", DocsURL: u.URL + "/docsrs"},
		Swift:      SwiftConfig{GitURL: u.URL + "/git", CodeloadURL: u.URL + "/codeload"},
		CacheDir:   cacheDir,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// golden compares got with testdata/golden/name, after replacing the test
// server's address.
func golden(t *testing.T, u *upstream, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, u.URL, "http://upstream")
	got = strings.ReplaceAll(got, strings.TrimPrefix(u.URL, "http://"), "upstream")
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

type goldenCase struct {
	name string
	call func() (string, error)
}

func TestToolsGolden(t *testing.T) {
	u := newUpstream(t)
	s := newService(t, u, "")
	for _, tt := range append(goldenCases(s), moreGoldenCases(s)...) {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, u, tt.name, got)
		})
	}
}

// goldenCases are the describe tools' golden answers for Go and npm.
func goldenCases(s *Service) []goldenCase {
	ctx := context.Background()
	return []goldenCase{
		{"describe_go_package.md", func() (string, error) {
			r, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub"})
			return md(r, err)
		}},
		{"describe_go_package_symbol.md", func() (string, error) {
			r, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Symbol: "Cut"})
			return md(r, err)
		}},
		{"describe_npm_package.md", func() (string, error) {
			r, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@acme/widget"})
			return md(r, err)
		}},
		{"get_npm_package_doc_section.md", func() (string, error) {
			r, err := s.GetNPMPackageDoc(ctx, GetNPMDocArgs{Package: "@acme/widget", Section: "usage"})
			return md(r, err)
		}},
	}
}

// moreGoldenCases are the Python, Rust and Swift answers and the searches.
func moreGoldenCases(s *Service) []goldenCase {
	ctx := context.Background()
	fuzzyOff := false
	return []goldenCase{
		{"describe_python_package.md", func() (string, error) {
			r, err := s.DescribePythonPackage(ctx, DescribeArgs{Package: "tinyhttp"})
			return md(r, err)
		}},
		{"describe_python_package_symbol.md", func() (string, error) {
			r, err := s.DescribePythonPackage(ctx, DescribeArgs{Package: "tinyhttp", Symbol: "Session"})
			return md(r, err)
		}},
		{"describe_rust_package.md", func() (string, error) {
			r, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore"})
			return md(r, err)
		}},
		{"describe_rust_package_symbol.md", func() (string, error) {
			r, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore", Symbol: "Store"})
			return md(r, err)
		}},
		{"describe_swift_package.md", func() (string, error) {
			r, err := s.DescribeSwiftPackage(ctx, DescribeArgs{Package: "acme/swift-greeter"})
			return md(r, err)
		}},
		{"search_package_docs_rust.md", func() (string, error) {
			r, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "kvstore", Language: "rust", Query: "insert"})
			if err != nil {
				return "", err
			}
			return r.Markdown, nil
		}},
		{"search_package_docs_swift.md", func() (string, error) {
			r, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "acme/swift-greeter", Language: "swift", Query: "greet", Limit: 3})
			if err != nil {
				return "", err
			}
			return r.Markdown, nil
		}},
		{"search_package_docs_go.md", func() (string, error) {
			r, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "example.com/demo/sub", Language: "go", Query: "Cut"})
			if err != nil {
				return "", err
			}
			return r.Markdown, nil
		}},
		{"search_package_docs_npm.md", func() (string, error) {
			r, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "@acme/widget", Language: "npm", Query: "theming", Fuzzy: &fuzzyOff})
			if err != nil {
				return "", err
			}
			return r.Markdown, nil
		}},
	}
}

func md(r *DocResult, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return r.Markdown, nil
}

func TestEveryAnswerStartsWithProvenanceAndFitsTheBudget(t *testing.T) {
	u := newUpstream(t)
	s := newService(t, u, "")
	ctx := context.Background()
	for _, budget := range []int{1, 400, 700, 1500, 3000, 50000} {
		limit := render.ClampBudget(budget, DefaultDescribeTokens)
		for page := 1; page <= 4; page++ {
			results := map[string]*DocResult{}
			var err error
			if results["go"], err = s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "go") // no such page at this budget
			}
			if results["npm"], err = s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@acme/widget", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "npm") // no such page at this budget
			}
			if results["doc"], err = s.GetNPMPackageDoc(ctx, GetNPMDocArgs{Package: "@acme/widget", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "doc") // no such page at this budget
			}
			if results["python"], err = s.DescribePythonPackage(ctx, DescribeArgs{Package: "tinyhttp", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "python") // no such page at this budget
			}
			if results["rust"], err = s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "rust") // no such page at this budget
			}
			if results["swift"], err = s.DescribeSwiftPackage(ctx, DescribeArgs{Package: "acme/swift-greeter", MaxTokens: budget, Page: page}); err != nil {
				if page == 1 || !errors.Is(err, ErrInvalidArgument) {
					t.Fatal(err)
				}
				delete(results, "swift") // no such page at this budget
			}
			for name, r := range results {
				lim := limit
				if name == "doc" {
					lim = render.ClampBudget(budget, DefaultDocTokens)
				}
				if r.Tokens > lim || render.Tokens(r.Markdown) > lim {
					t.Errorf("%s budget %d page %d: %d tokens > %d", name, budget, page, r.Tokens, lim)
				}
				if !render.FencesBalanced(r.Markdown) {
					t.Errorf("%s budget %d page %d: a code fence was cut:\n%s", name, budget, page, r.Markdown)
				}
				head := "# " + r.Name + "@" + r.Version + "\n"
				if !strings.HasPrefix(r.Markdown, head) || !strings.Contains(r.Markdown, "*"+r.Ecosystem+" · ") {
					t.Errorf("%s: answer does not start with its provenance:\n%s", name, r.Markdown[:min(200, len(r.Markdown))])
				}
				if r.NextPage > 0 && !strings.Contains(r.Markdown, "page=") {
					t.Errorf("%s: more pages but no paging hint", name)
				}
			}
		}
	}
	sr, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "example.com/demo/sub", Language: "go", Query: "cut reader", Limit: 50, MaxTokens: 400})
	if err != nil || sr.Tokens > 400 || !render.FencesBalanced(sr.Markdown) {
		t.Fatalf("search budget: %d tokens, err %v", sr.Tokens, err)
	}
}

func TestWarmCacheMakesNoRequests(t *testing.T) {
	u := newUpstream(t)
	s := newService(t, u, "")
	ctx := context.Background()
	if _, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@acme/widget", Version: "2.1.0"}); err != nil {
		t.Fatal(err)
	}
	before := u.requests.Load()
	for range 3 {
		if _, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@acme/widget", Version: "2.1.0", MaxTokens: 500, Page: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "@acme/widget", Version: "2.1.0", Language: "npm", Query: "widget"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := u.requests.Load() - before; got != 0 {
		t.Fatalf("warm calls made %d upstream requests", got)
	}
}

func TestTransientErrorsAreNotCachedAndStaleIsServed(t *testing.T) {
	u := newUpstream(t)
	s := newService(t, u, "")
	ctx := context.Background()
	u.fail.Store(true)
	if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo", Version: "v1.1.0"}); err == nil || !fetch.IsTransient(err) {
		t.Fatalf("err = %v, want a transient failure", err)
	}
	u.fail.Store(false)
	r, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo", Version: "v1.1.0"})
	if err != nil || r.Stale {
		t.Fatalf("after recovery: %v (stale=%v); the failure must not have been cached", err, r != nil && r.Stale)
	}
}

func TestDiskCacheSurvivesRestart(t *testing.T) {
	u := newUpstream(t)
	dir := t.TempDir()
	ctx := context.Background()
	if _, err := newService(t, u, dir).DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"}); err != nil {
		t.Fatal(err)
	}
	u.fail.Store(true) // upstream gone
	r, err := newService(t, u, dir).DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0", Symbol: "Cut"})
	if err != nil || !strings.Contains(r.Markdown, "func Cut(s, sep string)") {
		t.Fatalf("a fresh service with the same cache dir must answer offline: %v", err)
	}
}

// TestDiskCacheAcrossProcesses: a second process with the same cache
// directory answers "latest" questions, and known-missing packages, without
// a single upstream request.
func TestDiskCacheAcrossProcesses(t *testing.T) {
	u := newUpstream(t)
	dir := t.TempDir()
	ctx := context.Background()
	ask := func(s *Service) {
		if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@acme/widget"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/missing/mod"}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Fatalf("missing module: %v", err)
		}
	}
	ask(newService(t, u, dir))
	before := u.requests.Load()
	if before == 0 {
		t.Fatal("the first process made no requests")
	}
	ask(newService(t, u, dir))
	if got := u.requests.Load() - before; got != 0 {
		t.Fatalf("the second process made %d upstream requests", got)
	}
}

func TestToolErrorsAreActionable(t *testing.T) {
	u := newUpstream(t)
	s := newService(t, u, "")
	ctx := context.Background()
	tests := []struct {
		name    string
		call    func() error
		wantErr error
		wantMsg string
	}{
		{"unknown symbol", func() error {
			_, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Symbol: "Cutt"})
			return err
		}, ErrNotFound, "did you mean Cut"},
		{"missing package", func() error {
			_, err := s.DescribeGoPackage(ctx, DescribeGoArgs{})
			return err
		}, ErrInvalidArgument, "package is required"},
		{"bad language", func() error {
			_, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "x", Query: "y", Language: "cobol"})
			return err
		}, ErrInvalidArgument, "language must be"},
		{"unknown crate", func() error {
			_, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstor"})
			return err
		}, ErrNotFound, "did you mean kvstore?"},
		{"unknown crate version", func() error {
			_, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore", Version: "0.9.0"})
			return err
		}, ErrNotFound, "nearest: 0.3.1"},
		{"unknown Rust symbol", func() error {
			_, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore", Symbol: "Stor"})
			return err
		}, ErrNotFound, "did you mean Store"},
		{"Swift repository on another host", func() error {
			_, err := s.DescribeSwiftPackage(ctx, DescribeArgs{Package: "https://example.org/acme/swift-greeter"})
			return err
		}, ErrInvalidArgument, "not taken from arguments"},
		{"Swift tag", func() error {
			_, err := s.DescribeSwiftPackage(ctx, DescribeArgs{Package: "acme/swift-greeter", Version: "0.1.0"})
			return err
		}, ErrNotFound, "nearest tags: 1.0.0"},
		{"Python version", func() error {
			_, err := s.DescribePythonPackage(ctx, DescribeArgs{Package: "tinyhttp", Version: "0.0.1"})
			return err
		}, ErrNotFound, "nearest: 1.3.0"},
		{"projectPath not a directory", func() error {
			_, err := s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore", ProjectPath: "/nonexistent/dir"})
			return err
		}, ErrInvalidArgument, "projectPath"},
		{"unknown section", func() error {
			_, err := s.GetNPMPackageDoc(ctx, GetNPMDocArgs{Package: "@acme/widget", Section: "nothing-like-it"})
			return err
		}, ErrNotFound, "sections: (introduction); Install; Usage"},
	}
	for _, tt := range tests {
		err := tt.call()
		if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: err = %v, want %v containing %q", tt.name, err, tt.wantErr, tt.wantMsg)
		}
	}
}

func BenchmarkWarmDescribe(b *testing.B) {
	u := newUpstream(&testing.T{})
	defer u.Close()
	s, _ := New(&Config{GOPROXY: u.URL + "/goproxy", GOMODCACHE: b.TempDir()})
	ctx := context.Background()
	if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFollowedDeclarations: symbols declared in a package the described
// one's types lead into are found by describe and search, each saying
// which package declares it.
func TestFollowedDeclarations(t *testing.T) {
	s := evalService(t, false)
	ctx := context.Background()
	res, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "express", Symbol: "Application.use"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## property express.Application.use", "use: ApplicationRequestHandler<this>\ntype ApplicationRequestHandler<T> =",
		"*Defined in index.d.ts of @types/express-serve-static-core@5.1.3.*"} {
		if !strings.Contains(res.Markdown, want) {
			t.Errorf("describe lacks %q:\n%s", want, res.Markdown)
		}
	}
	sr, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "express", Language: "npm", Query: "app.use"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sr.Markdown, "symbol: express.Application.use") || !strings.Contains(sr.Markdown, "*Declared in @types/express-serve-static-core@5.1.3.*") {
		t.Errorf("search:\n%s", sr.Markdown)
	}
	found := false
	for _, h := range sr.Hits {
		if h.Title == "express.Application.use" {
			found = h.Package == "@types/express-serve-static-core@5.1.3"
		} else if h.Kind != "symbol" && h.Package != "" {
			t.Errorf("hit %+v names a package", h)
		}
	}
	if !found {
		t.Errorf("structured hits %+v: express.Application.use without its package", sr.Hits)
	}
}

// TestFollowedDeclarationsCached: the packages declarations lead into are
// cached on disk like the package itself, so a second process answers
// express (and what @types/express-serve-static-core declares) without a
// registry request.
func TestFollowedDeclarationsCached(t *testing.T) {
	reg := testutil.NewNPMRegistry(t, "../../testdata/npm/registry")
	dir := t.TempDir()
	ask := func() string {
		s, err := New(&Config{
			Client:     fetch.New(&fetch.Options{BaseBackoff: time.Millisecond, Retries: -1}),
			GOMODCACHE: t.TempDir(),
			NPM:        NPMConfig{Values: map[string]string{"registry": reg.URL + "/"}},
			CacheDir:   dir,
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.DescribeNPMPackage(context.Background(), DescribeNPMArgs{Package: "express", Symbol: "Application.use"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Markdown
	}
	first := ask()
	before := reg.Requests.Load()
	if before < 4 { // express and @types/express, then @types/express-serve-static-core: version list and tarball each
		t.Fatalf("the first process made %d registry requests", before)
	}
	second := ask()
	if got := reg.Requests.Load() - before; got != 0 {
		t.Errorf("the second process made %d registry requests", got)
	}
	if first != second || !strings.Contains(second, "@types/express-serve-static-core@5.1.3") {
		t.Errorf("answers differ or lack the followed package:\n%s\n---\n%s", first, second)
	}
}
